import FlowSpecCore

/// A command line read against a ``CommandSyntax``: every value checked (a known option, a
/// whole number, one of the allowed words, each required argument and option given), so a
/// command reads them without failing.
///
/// Options may come before, between or after the arguments. An option's value is the rest of
/// the word after `=`, or else the next word, whatever it looks like (as `getopt` does:
/// `--restore -3` restores `-3`). After `--` every word is an argument.
struct ParsedArguments {
    let command: CommandSyntax
    private var values: [String: [String]] = [:]
    private var positionals: [String] = []

    /// Reads `words`, the command line after the command's name.
    init(_ words: [String], for command: CommandSyntax) throws {
        self.command = command
        var index = 0
        var onlyArguments = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyArguments || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyArguments = true
                continue
            }
            let (spelling, inline) = Self.split(word)
            guard let option = command.option(spelt: spelling) else {
                if command.arguments.last?.count == .rest {
                    positionals.append(word)
                    continue
                }
                throw UsageError(
                    "unknown option '\(spelling)'\(Suggestion.hint(for: spelling, among: command.spellings))",
                    command: command)
            }
            if option.arity == .flag {
                if inline != nil {
                    throw UsageError("\(option.synopsis) takes no value; got '\(word)'", command: command)
                }
                values[option.long] = [""]
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < words.count {
                value = words[index]
                index += 1
            } else {
                throw UsageError("\(option.synopsis) needs a value", command: command)
            }
            try Self.check(value, of: option, command: command)
            values[option.long, default: []].append(value)
        }
        try checkComplete()
    }

    /// `--name=value` as the spelling and the value; any other word as itself and no value.
    private static func split(_ word: String) -> (spelling: String, value: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private static func check(_ value: String, of option: OptionSyntax, command: CommandSyntax) throws {
        switch option.value {
        case .text:
            return
        case .integer:
            guard Int(value) == nil else { return }
            throw UsageError("\(option.synopsis) takes a whole number; got '\(value)'", command: command)
        case .choice(let words):
            guard !words.contains(value) else { return }
            throw UsageError(
                "\(option.synopsis) must be one of \(words.joined(separator: ", ")); got '\(value)'"
                    + Suggestion.hint(for: value, among: words), command: command)
        }
    }

    /// Checks that every required option and argument was given, and no argument too many.
    private func checkComplete() throws {
        for option in command.options where option.isRequired && values[option.long] == nil {
            throw UsageError("missing \(option.synopsis)", command: command)
        }
        let required = command.arguments.filter { $0.count != .rest }.count
        if positionals.count < required {
            throw UsageError("missing <\(command.arguments[positionals.count].name)>", command: command)
        }
        let open = command.arguments.last.map { $0.count != .one } ?? false
        if !open, positionals.count > command.arguments.count {
            let extra = positionals[command.arguments.count]
            throw UsageError("unexpected argument '\(extra)'", command: command)
        }
    }

    /// Whether a flag was given.
    func flag(_ option: OptionSyntax) -> Bool {
        values[option.long] != nil
    }

    /// The value of an option, the last one if it was given twice.
    func text(_ option: OptionSyntax) -> String? {
        values[option.long]?.last
    }

    /// Every value of a repeated option, in order.
    func texts(_ option: OptionSyntax) -> [String] {
        values[option.long] ?? []
    }

    /// The value of a whole-number option.
    func integer(_ option: OptionSyntax) -> Int? {
        text(option).flatMap { Int($0) }
    }

    /// The value of a choice option, or its default.
    func choice<Choice: RawRepresentable>(_ option: OptionSyntax, as type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        (text(option) ?? option.defaultValue).flatMap(Choice.init(rawValue:))
    }

    /// The words of a positional argument: one for ``ArgumentSyntax/Count/one``, the rest for
    /// the last argument.
    func words(_ argument: ArgumentSyntax) -> [String] {
        guard let position = command.arguments.firstIndex(where: { $0.name == argument.name }) else { return [] }
        guard argument.count == .one else { return Array(positionals.dropFirst(position)) }
        return position < positionals.count ? [positionals[position]] : []
    }

    /// The word of an argument that takes exactly one.
    func word(_ argument: ArgumentSyntax) -> String {
        words(argument).first ?? ""
    }
}

/// A command line flowspec cannot run: printed with the command's usage, exit status 2.
struct UsageError: Error {
    let message: String
    /// The command whose usage to show, `nil` for the tool's.
    let command: CommandSyntax?

    init(_ message: String, command: CommandSyntax?) {
        self.message = message
        self.command = command
    }
}
