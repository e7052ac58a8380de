import FlowSpecCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flowspec diff`: what a change of a spec changes, and what it breaks for users who have the
/// old version's state stored.
struct DiffCommand: Command {
    static let files = ArgumentSyntax(
        name: "files", help: "OLD NEW, or with --base the spec files to compare with REF.", count: .oneOrMore)
    static let base = OptionSyntax.text(
        "base", valueName: "ref", help: "Compare each file with its version at this git revision.")
    /// The output formats: those of `check`, and the new version's diagrams with the changes marked.
    enum Format: String, CaseIterable {
        case text, json, github, sarif, mermaid
    }

    static let format = OptionSyntax.choice(
        "format", Format.self, default: .text,
        help: "Output format: text, json, github, sarif, or mermaid (each changed machine's diagram, changes marked).")

    static let syntax = CommandSyntax(
        name: "diff",
        abstract: "Report what changed between two versions of a spec, and what the change breaks.",
        discussion: """
            Lists the changes of every machine (states, events, conditions, effects, \
            transitions, timeouts, nesting, entry and exit, sequences, persist, require) and \
            reports, as findings with rule ids, what breaks stored state: a persisted state \
            removed (or now holding states) without a `migrate` entry, an integer-persisted \
            state moved, a stored form changed, a state's kind changed, a compound state's \
            remembered history no longer read. Only the states the flow can be in (no states \
            inside, no history state) are stored: positions count them alone. Severities work \
            as for `check`. With --base REF each file is compared with \
            `git show REF:FILE` (a file new since REF is all additions). Exit status: 0 when no \
            finding is an error, 1 when any is (or a spec has errors), 2 when a file cannot be \
            read, git or REF is missing, or the command line is wrong. Example:
              flowspec diff --base origin/main specs/app.yaml
            """,
        arguments: [files],
        options: [base, format, CheckCommand.warningsAsErrors, CheckCommand.severity] + LimitOptions.options
    )

    let files: [String]
    let base: String?
    let format: Format
    let policy: SeverityPolicy
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        files = arguments.words(Self.files)
        base = arguments.text(Self.base)
        format = arguments.choice(Self.format, as: Format.self) ?? .text
        limits = try LimitOptions(arguments).limits
        policy = SeverityPolicy(
            commandLine: try CheckCommand.severityOverrides(arguments.texts(CheckCommand.severity)),
            warningsAsErrors: arguments.flag(CheckCommand.warningsAsErrors))
        if base == nil, files.count != 2 {
            throw UsageError(
                "diff compares two files (OLD NEW), or each file with --base REF; got \(files.count)",
                command: Self.syntax)
        }
    }

    func run() throws {
        var pairs: [(old: SourceFile, new: SourceFile)] = []
        if let base {
            for path in files {
                let new = try read(path)
                let old = try GitRevision.show(base, path)
                pairs.append((SourceFile(path: "\(base):\(path)", text: old ?? ""), new))
            }
        } else {
            pairs.append((try read(files[0]), try read(files[1])))
        }
        var changes: [SpecDiff.Change] = []
        var findings: [Diagnostic] = []
        var diagrams: [FlowDiagram] = []
        var specErrors = 0
        let checker = SpecChecker(limits: limits)
        for (old, new) in pairs {
            let (oldResult, oldErrors) = checked(old, checker, isEmptyOld: old.byteCount == 0)
            let (newResult, newErrors) = checked(new, checker, isEmptyOld: false)
            specErrors += oldErrors + newErrors
            // Composed: a change to a machine that another runs changes the other too.
            let newSpec = newResult?.composed ?? Spec()
            let diff = SpecDiff(old: oldResult?.composed ?? Spec(), oldFile: old.path, new: newSpec, newFile: new.path)
            changes += diff.changes
            findings += policy.apply(to: diff.findings, spec: newSpec.severity)
            if format == .mermaid, let newResult { diagrams += Self.diagrams(newResult, diff.changes) }
        }
        var output = Console.StandardOutput()
        let sources = pairs.flatMap { [$0.old, $0.new] }
        switch format {
        case .text:
            DiagnosticRenderer.render(findings, files: sources, format: .text, colour: false, into: &output)
            output.write(DiffReport.text(changes))
        case .json:
            DiffReport.json(changes, findings: findings, to: &output)
        case .github:
            DiagnosticRenderer.render(findings, files: sources, format: .github, colour: false, into: &output)
        case .sarif:
            DiagnosticRenderer.render(findings, files: sources, format: .sarif, colour: false, into: &output)
        case .mermaid:
            for (position, diagram) in diagrams.enumerated() {
                if position > 0 { output.write("\n") }
                MermaidRenderer.render(diagram, into: &output)
            }
        }
        output.flush()
        let diffErrors = findings.filter { $0.severity == .error }.count
        if format == .text {
            // The errors of the specs themselves count too: they are why the exit status is 1.
            let errors = diffErrors + specErrors
            Console.error(
                "flowspec: \(changes.count) change\(changes.count == 1 ? "" : "s"), \(errors) error"
                    + "\(errors == 1 ? "" : "s")"
                    + (specErrors > 0 ? " (\(specErrors) in the specs, above)" : "")
                    + ", \(findings.count - diffErrors) other finding"
                    + "\(findings.count - diffErrors == 1 ? "" : "s")")
        }
        if diffErrors > 0 || specErrors > 0 { throw ExitStatus.findings }
    }

    private func read(_ path: String) throws -> SourceFile {
        do {
            return try SpecFileReader.read(path, maxSize: limits.maxFileSize)
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
    }

    /// The spec read from `source`, with `check`'s errors printed (to standard error): a spec
    /// with errors is still compared where its machines could be read. An empty old version
    /// (a file new since the base) is no spec at all.
    private func checked(_ source: SourceFile, _ checker: SpecChecker, isEmptyOld: Bool)
        -> (SpecChecker.Checked?, Int)
    {
        guard !isEmptyOld else { return (nil, 0) }
        let result = checker.check(source)
        let errors = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity).filter {
            $0.severity == .error
        }
        if !errors.isEmpty {
            Console.errorText(DiagnosticRenderer.render(errors, files: [source], format: .text, colour: false))
        }
        return (result, errors.count)
    }

    /// The diagram of each machine of the new version that changed, with its changes marked.
    private static func diagrams(_ result: SpecChecker.Checked, _ changes: [SpecDiff.Change]) -> [FlowDiagram] {
        result.graphs.compactMap { graph in
            let own = changes.filter { $0.machine == graph.machine.name.value }
            guard !own.isEmpty else { return nil }
            var diagram = FlowDiagram(graph: graph)
            diagram.mark(own) { graph.stateIndex[$0] }
            return diagram
        }
    }
}

/// A file's version at a git revision, read with `git show` in the repository that holds the
/// file (which need not be the working directory's).
enum GitRevision {
    /// The text of `path` (relative to the working directory, or absolute) at `ref`, or `nil`
    /// when the file did not exist there. Exit 2 when git cannot run, when the file is in no
    /// repository, or when `ref` is no commit of the file's repository.
    static func show(_ ref: String, _ path: String) throws -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let parent = components.dropLast().joined(separator: "/")
        let directory = components.count == 1 ? "." : parent.isEmpty ? "/" : parent
        let name = String(components.last ?? "")
        let verified = try git(["-C", directory, "rev-parse", "--verify", "--quiet", "\(ref)^{commit}"])
        guard verified.status == 0 else {
            let repository = try git(["-C", directory, "rev-parse", "--git-dir"])
            Console.error(
                repository.status == 0
                    ? "flowspec: error: --base \(ref) is not a commit of the git repository that holds \(path)"
                    : "flowspec: error: --base needs \(path) to be in a git repository, and it is not")
            throw ExitStatus.failure
        }
        let shown = try git(["-C", directory, "show", "\(ref):./\(name)"])
        return shown.status == 0 ? shown.output : nil
    }

    /// Runs git with `arguments`; exit 2 when it cannot be started.
    private static func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let result = run(["git"] + arguments) else {
            Console.error("flowspec: error: --base needs git, which could not be run")
            throw ExitStatus.failure
        }
        return result
    }

    /// Runs a command (found on `PATH`) and collects its standard output; `nil` if it cannot
    /// be started. Its standard error is discarded.
    private static func run(_ arguments: [String]) -> (status: Int32, output: String)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            return nil
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        close(fds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : 128, String(decoding: bytes, as: UTF8.self))
    }
}
