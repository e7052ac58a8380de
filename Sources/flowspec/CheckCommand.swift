import ArgumentParser
import FlowSpecCore

extension OutputFormat: ExpressibleByArgument {}

/// `flowspec check`: reports every finding in the given spec files.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check spec files and report findings with file, line and column.",
        discussion: """
            Exit status: 0 when no finding is an error, 1 when any is (YAML syntax errors \
            included), 2 when a file cannot be read or the command line is wrong.
            """
    )

    @Argument(help: "The spec files to check.")
    var files: [String]

    @Option(help: "Output format: text, json, github or sarif.")
    var format: OutputFormat = .text

    @Flag(help: "Treat warnings as errors (for CI).")
    var warningsAsErrors = false

    @Option(name: .customLong("severity"),
            help: ArgumentHelp("Change a rule's severity; repeatable.", valueName: "rule=error|warning|note|off"))
    var severities: [String] = []

    @Option(help: "Colour: auto (only on a terminal), always or never.")
    var color: ColourChoice = .auto

    @OptionGroup(title: "Limits")
    var limitOptions: LimitOptions

    mutating func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one spec file.") }
        _ = try severityOverrides()
    }

    /// From this many bytes on, a spec's model and graphs are kept until the process exits
    /// rather than freed (see ``ProcessLifetime``): a 1 MB spec's teardown costs about 2.6
    /// million instructions, a small one's next to nothing.
    static let keptSpecSize = 1 << 18

    func run() throws {
        let checker = SpecChecker(limits: limitOptions.limits)
        let policy = SeverityPolicy(commandLine: try severityOverrides(), warningsAsErrors: warningsAsErrors)
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
            Console.error(summary(errors: errors, warnings: diagnostics.filter { $0.severity == .warning }.count,
                                  files: checked))
        }
        if unreadable { throw ExitCode(2) }
        if errors > 0 { throw ExitCode(1) }
    }

    private func summary(errors: Int, warnings: Int, files: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "flowspec: \(count(files, "file")) checked: \(count(errors, "error")), \(count(warnings, "warning"))"
    }

    private func severityOverrides() throws -> [Rule: SeverityLevel] {
        var overrides: [Rule: SeverityLevel] = [:]
        for setting in severities {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw ValidationError("--severity takes rule=level, such as unused-name=error; got '\(setting)'.")
            }
            guard let rule = Rule(rawValue: parts[0]) else {
                throw ValidationError("There is no rule '\(parts[0])'. Run 'flowspec rules' to list them.")
            }
            guard let level = SeverityLevel(rawValue: parts[1]) else {
                throw ValidationError("The level of '\(parts[0])' must be error, warning, note or off; got '\(parts[1])'.")
            }
            overrides[rule] = level
        }
        return overrides
    }
}

/// When to colour text output.
enum ColourChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// `flowspec rules`: lists every rule id with its default severity.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List every rule id with its default severity and summary.")

    func run() {
        for rule in Rule.allCases {
            Console.output("\(padded(rule.rawValue, to: 22)) \(padded(rule.defaultSeverity.rawValue, to: 8)) \(rule.summary)\n")
        }
    }

    /// The text followed by spaces up to `width` characters.
    private func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
