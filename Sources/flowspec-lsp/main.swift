import Foundation

// `flowspec-lsp`: flowspec's language server, speaking the Language Server Protocol over
// standard input and output. A separate executable, so that `flowspec` itself keeps loading
// no Foundation (its start-up is a benchmark row).
//
// A client that stops reading must not kill the server with SIGPIPE: writes then fail, and
// the server ends when its input ends.
signal(SIGPIPE, SIG_IGN)
var server = LanguageServer(output: MessageWriter())
exit(server.run(reading: Inbox(reading: MessageReader(input: FileHandle.standardInput.fileDescriptor))))
