import ArgumentParser
import FlowSpecCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit codes are part of the contract: 0 clean, 1 an error finding, 2 flowspec could not do
// its job. ArgumentParser's own usage errors (64) are mapped to 2.
TruncatedSpecGuard.install()
do {
    var command = try FlowSpecCommand.parseAsRoot()
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    if FlowSpecCommand.exitCode(for: error) == .success {
        FlowSpecCommand.exit(withError: error)
    }
    Console.error(FlowSpecCommand.fullMessage(for: error))
    Console.error("Run 'flowspec help' for usage.")
    exit(2)
}
