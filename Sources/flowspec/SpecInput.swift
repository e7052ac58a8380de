import FlowSpecCore

/// Reads and checks one spec for `gen` and `simulate`, printing its findings (text, to
/// standard error) the way `check` does. Throws exit code 2 if the file cannot be read and
/// 1 if it has errors.
struct SpecInput {
    let source: SourceFile
    let result: SpecChecker.Checked
    let programs: [FlowProgram]

    init(
        path: String, limits: YAMLLimits = YAMLLimits(), policy: SeverityPolicy = SeverityPolicy(),
        refusal: String = "nothing was generated"
    ) throws {
        let checker = SpecChecker(limits: limits)
        let source: SourceFile
        do {
            source = try SpecFileReader.read(path, maxSize: checker.limits.maxFileSize)
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
        let result = checker.check(source)
        let diagnostics = policy.apply(to: result.diagnostics, spec: result.spec.severity)
        if !diagnostics.isEmpty {
            Console.errorText(
                DiagnosticRenderer.render(
                    diagnostics, files: [source], format: .text,
                    colour: Console.wantsColourOnError))
        }
        guard
            let programs = SpecGeneration.programs(result, diagnostics: diagnostics)
        else {
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors == 0 {
                Console.error(
                    "flowspec: internal error: \(path) has no errors but its machines could not be resolved; \(refusal) (please report this as a flowspec bug)"
                )
                throw ExitStatus.failure
            }
            Console.error("flowspec: error: \(path) has \(errors) error\(errors == 1 ? "" : "s"); \(refusal)")
            throw ExitStatus.findings
        }
        self.source = source
        self.result = result
        self.programs = programs
    }
}

extension SpecInput {
    /// The message for a machine that runs only as a sub-flow, asked for on its own: its paths
    /// and coverage are those of the machines that run it.
    static func runsOnlyAsSubFlow(_ machine: String, spec: String) -> String {
        "flowspec: error: \(spec): machine '\(machine)' runs only as a sub-flow (`standalone: false`), never on its own; its paths and coverage are those of the machines that run it"
    }

    /// The position of the machine a command runs on: the one named, or the only one. Exit 2,
    /// naming the machines, for a name the spec does not have or a spec of several without one.
    func machineIndex(named machine: String?, spec: String) throws -> Int {
        let names = programs.map(\.name.name).joined(separator: ", ")
        if let machine {
            guard let index = programs.firstIndex(where: { $0.name.name == machine }) else {
                Console.error("flowspec: error: \(spec) has no machine '\(machine)'; it has \(names)")
                throw ExitStatus.failure
            }
            return index
        }
        guard programs.count == 1 else {
            Console.error(
                "flowspec: error: \(spec) has \(programs.count) machines; choose one with --machine (\(names))")
            throw ExitStatus.failure
        }
        return 0
    }
}
