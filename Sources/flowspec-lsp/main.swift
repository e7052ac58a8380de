import Foundation

// `flowspec-lsp`: flowspec's language server, speaking the Language Server Protocol over
// standard input and output. A separate executable, so that `flowspec` itself keeps loading
// no Foundation (its start-up is a benchmark row).
var server = LanguageServer(output: MessageWriter())
exit(server.run(reading: Inbox(reading: MessageReader(input: FileHandle.standardInput.fileDescriptor))))
