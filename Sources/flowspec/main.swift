#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

TruncatedSpecGuard.install()
exit(FlowSpecCommand.main(Array(CommandLine.arguments.dropFirst())))
