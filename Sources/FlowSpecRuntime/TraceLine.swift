// This file is compiled into two modules: FlowSpecRuntime, whose driver records traces, and
// FlowSpecCore (through a symbolic link), whose `flowspec simulate` prints them and whose
// `--replay` reads them. The line is written once, here; the core does not link the runtime,
// which would load Foundation (through Observation) into the command-line tool.

/// One line of a trace: the input, the state after it, whether it was ignored, the effects
/// in order and every timeout armed after it.
///
///     splashFinished -> slide0 | effects: - | timeout: -
///     @timeout -> error | effects: showError | timeout: -
///     submit -> verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> credentials
enum TraceLine {
    /// A timeout armed after a step: `10000ms -> error`, or for a compound state's,
    /// `signIn 300000ms -> welcome`.
    struct Timeout: Equatable {
        /// The compound state whose timeout it is, or `nil` for the state's own.
        var scope: String?
        /// Its duration in whole milliseconds.
        var milliseconds: Int64
        /// The name of the state it leads to.
        var target: String
    }

    /// What came in at a step, as a trace names it.
    enum Input: Equatable, Sendable {
        /// `start`: the flow starts.
        case start
        /// `restore(VALUE)`: the flow is restored from what was stored (`nil` when nothing was),
        /// the value as written (`2`, `nil`, `2, connectivity=7; signedIn=5`).
        case restore(String)
        /// An event, by name.
        case event(String)
        /// `@timeout`: the state's own timeout.
        case timeout
        /// `@timeout(NAME)`: the timeout of the compound state of that name or, with parallel
        /// regions, of the state of that name.
        case timeoutOf(String)
        /// `@conditions`: the app said its conditions changed, so the `always` branches of
        /// the states the flow is in were tried.
        case conditions

        /// The input as a line writes it (before ``TraceLine/escaped(_:)``).
        var text: String {
            switch self {
            case .start: "start"
            case .restore(let value): "restore(\(value))"
            case .event(let name): name
            case .timeout: "@timeout"
            case .timeoutOf(let name): "@timeout(\(name))"
            case .conditions: "@conditions"
            }
        }
    }

    /// The line that says a condition changed: `+name` once it holds, `-name` once it does not.
    static func condition(_ name: String, holds: Bool) -> String { escaped((holds ? "+" : "-") + name) }

    /// The line of one step.
    static func text(input: String, state: String, ignored: Bool, effects: [String], timeouts: [Timeout]) -> String {
        let effectText = effects.isEmpty ? "-" : effects.joined(separator: ", ")
        let timeoutText =
            timeouts.isEmpty
            ? "-"
            : timeouts.map { ($0.scope.map { $0 + " " } ?? "") + "\($0.milliseconds)ms -> \($0.target)" }
                .joined(separator: ", ")
        return escaped(
            "\(input) -> \(state)\(ignored ? " (ignored)" : "") | effects: \(effectText) | timeout: \(timeoutText)")
    }

    /// `line` with line breaks and other control characters written as Swift escapes
    /// (`\u{A}`): a trace is one step a line, and a name or a restored value may hold anything
    /// (a value from a device's storage, `simulate --restore` from a command line), which must
    /// not add a forged step.
    static func escaped(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isControl) else { return line }
        var result = ""
        for scalar in line.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` with the escapes ``escaped(_:)`` writes read back: `\u{A}` is a line feed again.
    /// Only escapes of what it escapes are read, so a name that holds `\u{41}` keeps it.
    static func unescaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains("\\") else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let (scalar, end) = escape(in: scalars, at: index) {
                result.append(scalar)
                index = end
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// The control character an escape `\u{…}` at `start` stands for, and where it ends.
    private static func escape(in scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        guard start + 3 < scalars.count, scalars[start] == "\\", scalars[start + 1] == "u", scalars[start + 2] == "{"
        else { return nil }
        var value: UInt32 = 0
        var index = start + 3
        while index < scalars.count, index - start - 3 < 6, let digit = Int(String(scalars[index]), radix: 16) {
            value = value * 16 + UInt32(digit)
            index += 1
        }
        guard index > start + 3, index < scalars.count, scalars[index] == "}", let scalar = Unicode.Scalar(value),
            isControl(scalar)
        else { return nil }
        return (scalar, index + 1)
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
