/// What a command accepts: its arguments and options, and the texts of its help. The parser
/// (``ParsedArguments``) and the help (``HelpText``) are both made from it, so they cannot
/// disagree.
struct CommandSyntax: Sendable {
    /// The word after `flowspec` (`check`).
    let name: String
    /// One line: what the command does.
    let abstract: String
    /// Paragraphs after the abstract in the help; a line that starts with spaces is kept as is.
    var discussion = ""
    /// The positional arguments, in order.
    var arguments: [ArgumentSyntax] = []
    /// The options, in the order the help lists them.
    var options: [OptionSyntax] = []

    /// The option spelt `--long` or `-s`, if the command has it.
    func option(spelt spelling: String) -> OptionSyntax? {
        if spelling.hasPrefix("--") {
            let long = spelling.dropFirst(2)
            return options.first { $0.long == long }
        }
        return options.first { $0.short.map { "-\($0)" } == spelling }
    }

    /// Every spelling of every option, for "did you mean" hints.
    var spellings: [String] {
        options.map { "--\($0.long)" } + options.compactMap { $0.short.map { "-\($0)" } }
    }
}

/// A positional argument of a command.
struct ArgumentSyntax: Sendable {
    /// How many values an argument takes.
    enum Count: Sendable {
        /// Exactly one.
        case one
        /// One or more.
        case oneOrMore
        /// Any number, the last argument: every word left over, an unknown option included
        /// (`simulate`'s `-condition`).
        case rest
    }

    /// The name shown in angle brackets (`<spec>`).
    let name: String
    /// What it is, for the help.
    let help: String
    var count = Count.one
}

/// An option of a command: `--long <value>`, `--long=<value>` or a flag.
struct OptionSyntax: Sendable {
    /// How often an option takes a value.
    enum Arity: Sendable {
        /// No value: present or not.
        case flag
        /// One value; given twice, the last counts.
        case single
        /// One value each time it is given; all count.
        case repeated
    }

    /// What a value must be; checked when the command line is read.
    enum Value: Sendable {
        /// Any text.
        case text
        /// A whole number.
        case integer
        /// One of these words.
        case choice([String])
    }

    /// Where the help lists an option.
    enum Section: String, Sendable {
        case options = "OPTIONS"
        case limits = "LIMITS"
    }

    /// The name after `--`.
    let long: String
    /// The letter after `-`, if the option has a short spelling.
    var short: Character? = nil
    var arity: Arity
    var value = Value.text
    /// The name of the value in the help (`<bytes>`); the long name by default.
    var valueName: String? = nil
    let help: String
    /// The value used when the option is not given, shown in the help.
    var defaultValue: String? = nil
    /// Whether the command cannot run without it.
    var isRequired = false
    var section = Section.options

    /// A flag.
    static func flag(_ long: String, help: String) -> OptionSyntax {
        OptionSyntax(long: long, arity: .flag, help: help)
    }

    /// An option that takes one text value.
    static func text(
        _ long: String, short: Character? = nil, valueName: String? = nil, help: String,
        isRequired: Bool = false
    ) -> OptionSyntax {
        OptionSyntax(long: long, short: short, arity: .single, valueName: valueName, help: help, isRequired: isRequired)
    }

    /// An option whose value is one of the raw values of `type`.
    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ long: String, _ type: Choice.Type, default defaultValue: Choice? = nil, help: String, isRequired: Bool = false
    ) -> OptionSyntax where Choice.RawValue == String {
        OptionSyntax(
            long: long, arity: .single, value: .choice(Choice.allCases.map(\.rawValue)), help: help,
            defaultValue: defaultValue?.rawValue, isRequired: isRequired)
    }

    /// How the option is written in usage lines and help: `--format <format>`, `--check`.
    var synopsis: String {
        arity == .flag ? "--\(long)" : "--\(long) <\(valueName ?? long)>"
    }
}
