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

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
