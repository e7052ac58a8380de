/// The help of the tool and of each command, made from their ``CommandSyntax``s and wrapped to
/// 80 columns.
enum HelpText {
    static let width = 80
    /// The column where an option's or argument's help starts.
    static let helpColumn = 26

    /// The options every command has besides its own.
    static let commonOptions = [
        ("--version", "Show the version."),
        ("-h, --help", "Show help information.")
    ]

    /// `flowspec --help`: what the tool does and its commands.
    static func tool(abstract: String, discussion: String, commands: [CommandSyntax]) -> String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        lines += paragraphs(discussion) + [""]
        lines += ["USAGE: flowspec <command>", "", "OPTIONS:"]
        lines += commonOptions.flatMap { entry($0.0, $0.1) }
        lines += ["", "COMMANDS:"]
        lines += commands.flatMap { entry($0.name, $0.abstract) }
        lines += ["", "  See 'flowspec help <command>' for detailed help."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `flowspec <command> --help`.
    static func command(_ command: CommandSyntax) -> String {
        var lines = wrap("OVERVIEW: \(command.abstract)", indent: 0)
        if !command.discussion.isEmpty { lines += [""] + paragraphs(command.discussion) }
        lines += ["", "USAGE: \(usage(command))"]
        if !command.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += command.arguments.flatMap { entry("<\($0.name)>", $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += command.options.filter { $0.section == .options }.flatMap(option)
        lines += commonOptions.flatMap { entry($0.0, $0.1) }
        let limits = command.options.filter { $0.section == .limits }
        if !limits.isEmpty {
            lines += ["", "\(OptionSyntax.Section.limits.rawValue):"]
            lines += limits.flatMap(option)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The usage line: `flowspec check <files> ... [--format <format>] ...`.
    static func usage(_ command: CommandSyntax) -> String {
        var words = ["flowspec", command.name]
        for argument in command.arguments where argument.count != .rest {
            words.append(argument.count == .one ? "<\(argument.name)>" : "<\(argument.name)> ...")
        }
        for option in command.options {
            let repeated = option.arity == .repeated ? " ..." : ""
            words.append(option.isRequired ? option.synopsis : "[\(option.synopsis)\(repeated)]")
        }
        if let rest = command.arguments.last, rest.count == .rest { words.append("[<\(rest.name)> ...]") }
        return words.joined(separator: " ")
    }

    /// An option's entry: its help, then the words it allows and its default.
    private static func option(_ option: OptionSyntax) -> [String] {
        let spelling = option.short.map { "-\($0), \(option.synopsis)" } ?? option.synopsis
        var help = option.help
        if case .choice(let words) = option.value {
            help += " (values: \(words.joined(separator: ", "))\(option.defaultValue.map { "; default: \($0)" } ?? ""))"
        }
        return entry(spelling, help)
    }

    /// A name and its help, the help in its column (on the next line when the name is long).
    private static func entry(_ name: String, _ help: String) -> [String] {
        let label = "  " + name
        var lines = wrap(help, indent: helpColumn)
        if label.count + 1 <= helpColumn {
            lines[0] =
                label + String(repeating: " ", count: helpColumn - label.count) + String(lines[0].dropFirst(helpColumn))
        } else {
            lines.insert(label, at: 0)
        }
        return lines
    }

    /// Each paragraph of `text` wrapped; a line that starts with a space is kept as it is.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            line.first == " " ? [String(line)] : wrap(String(line), indent: 0)
        }
    }

    /// `text` in lines of at most ``width`` characters (a longer word stands alone), each
    /// indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > width {
                lines.append(margin + line)
                line = ""
            }
            line += line.isEmpty ? word : " " + word
        }
        lines.append(margin + line)
        return lines
    }
}
