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
        return "\(input) -> \(state)\(ignored ? " (ignored)" : "") | effects: \(effectText) | timeout: \(timeoutText)"
    }
}
