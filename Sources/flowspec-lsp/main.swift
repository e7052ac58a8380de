import Foundation

// `flowspec-lsp`: flowspec's language server, speaking the Language Server Protocol over
// standard input and output. A separate executable, so that `flowspec` itself keeps loading
// no Foundation (its start-up is a benchmark row).
var server = LanguageServer(output: MessageWriter())
var reader = MessageReader(input: FileHandle.standardInput.fileDescriptor)
exit(server.run(reading: &reader))
