import FlowSpecCore

/// Reads and checks one spec for `gen` and `simulate`, printing its findings (text, to
/// standard error) the way `check` does. Throws exit code 2 if the file cannot be read and
/// 1 if it has errors.
struct SpecInput {
    let source: SourceFile
    let result: SpecChecker.Result
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
        guard let programs = SpecGeneration.programs(result, diagnostics: diagnostics) else {
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
