import FlowSpecCore

/// `flowspec check`: reports every finding in the given spec files.
struct CheckCommand: Command {
    static let files = ArgumentSyntax(name: "files", help: "The spec files to check.", count: .oneOrMore)
    static let format = OptionSyntax.choice(
        "format", OutputFormat.self, default: .text,
        help: "Output format: text, json, github or sarif.")
    static let warningsAsErrors = OptionSyntax.flag("warnings-as-errors", help: "Treat warnings as errors (for CI).")
    static let severity = OptionSyntax(
        long: "severity", arity: .repeated, valueName: "rule=error|warning|note|off",
        help: "Change a rule's severity; repeatable.")
    static let color = OptionSyntax.choice(
        "color", ColourChoice.self, default: .auto,
        help: "Colour: auto (only on a terminal), always or never.")

    static let syntax = CommandSyntax(
        name: "check",
        abstract: "Check spec files and report findings with file, line and column.",
        discussion: """
            Exit status: 0 when no finding is an error, 1 when any is (YAML syntax errors \
            included), 2 when a file cannot be read or the command line is wrong.
            """,
        arguments: [files],
        options: [format, warningsAsErrors, severity, color] + LimitOptions.options
    )

    let files: [String]
    let format: OutputFormat
    let policy: SeverityPolicy
    let color: ColourChoice
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        files = arguments.words(Self.files)
        format = arguments.choice(Self.format, as: OutputFormat.self) ?? .text
        color = arguments.choice(Self.color, as: ColourChoice.self) ?? .auto
        limits = try LimitOptions(arguments).limits
        policy = SeverityPolicy(
            commandLine: try Self.severityOverrides(arguments.texts(Self.severity)),
            warningsAsErrors: arguments.flag(Self.warningsAsErrors))
    }

    /// From this many bytes on, a spec's model and graphs are kept until the process exits
    /// rather than freed (see ``ProcessLifetime``): a large spec's teardown costs millions of
    /// instructions for nothing, a small one's next to nothing.
    static let keptSpecSize = 1 << 18

    func run() throws {
        let checker = SpecChecker(limits: limits)
        // The files read, and those with findings (whose lines excerpts show).
        var checked = 0
        var sources: [SourceFile] = []
        var diagnostics: [Diagnostic] = []
        var unreadable = false
        for path in files {
            do {
                let source = try SpecFileReader.read(path, maxSize: checker.limits.maxFileSize)
                let result = checker.check(source)
                let findings = policy.apply(to: result.diagnostics, spec: result.spec.severity)
                checked += 1
                diagnostics += findings
                // Only the text of a file with findings is shown again (in excerpts), and only a
                // large spec is slow to free: many small files checked at once hold no more
                // than their findings.
                if !findings.isEmpty { sources.append(source) }
                if source.byteCount >= Self.keptSpecSize { ProcessLifetime.keep(result) }
            } catch {
                Console.error("flowspec: error: \(error)")
                unreadable = true
            }
        }
        let colour = color == .always || (color == .auto && Console.wantsColour)
        var output = Console.StandardOutput()
        DiagnosticRenderer.render(diagnostics, files: sources, format: format, colour: colour, into: &output)
        output.flush()
        let errors = diagnostics.filter { $0.severity == .error }.count
        if format == .text {
            Console.error(
                summary(
                    errors: errors, warnings: diagnostics.filter { $0.severity == .warning }.count,
                    files: checked))
        }
        if unreadable { throw ExitStatus.failure }
        if errors > 0 { throw ExitStatus.findings }
    }

    private func summary(errors: Int, warnings: Int, files: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "flowspec: \(count(files, "file")) checked: \(count(errors, "error")), \(count(warnings, "warning"))"
    }

    static func severityOverrides(_ settings: [String]) throws -> [Rule: SeverityLevel] {
        var overrides: [Rule: SeverityLevel] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw UsageError(
                    "--severity takes rule=level, such as unused-name=error; got '\(setting)'", command: syntax)
            }
            guard let rule = Rule(rawValue: parts[0]) else {
                let hint = Suggestion.hint(for: parts[0], among: Rule.allCases.map(\.rawValue))
                throw UsageError(
                    "there is no rule '\(parts[0])'" + (hint.isEmpty ? "; run 'flowspec rules' to list them" : hint),
                    command: syntax)
            }
            guard let level = SeverityLevel(rawValue: parts[1]) else {
                throw UsageError(
                    "the level of '\(parts[0])' must be error, warning, note or off; got '\(parts[1])'",
                    command: syntax)
            }
            overrides[rule] = level
        }
        return overrides
    }
}

/// When to colour text output.
enum ColourChoice: String, CaseIterable {
    case auto, always, never
}

/// `flowspec rules`: lists every rule id with its default severity.
struct RulesCommand: Command {
    static let syntax = CommandSyntax(
        name: "rules", abstract: "List every rule id with its default severity and summary.")

    init(_ arguments: ParsedArguments) {}

    func run() {
        for rule in Rule.allCases {
            Console.output(
                "\(padded(rule.rawValue, to: 22)) \(padded(rule.defaultSeverity.rawValue, to: 8)) \(rule.summary)\n")
        }
    }

    /// The text followed by spaces up to `width` characters.
    private func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
