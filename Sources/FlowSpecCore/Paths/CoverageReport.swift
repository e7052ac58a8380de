/// `flowspec coverage` output: per machine, what its traces exercised against what it can
/// do, and each item not exercised at its place in the spec.
public enum CoverageReport {
    /// One machine's coverage.
    public struct Machine: Sendable {
        /// What the traces exercised.
        public var coverage: TraceCoverage
        /// The spec's machine, for locations.
        public var machine: FlowSpecCore.MachineSpec
        /// What no run can exercise (unreachable, or never taken), left out of the totals.
        public var impossible: Set<CoverageItem>
        /// Every item that counts, in spec order.
        public var items: [CoverageItem]

        /// The coverage of `machine`, with what no run can do found by exploring it.
        public init(coverage: TraceCoverage, machine: FlowSpecCore.MachineSpec, impossible: Set<CoverageItem>) {
            self.coverage = coverage
            self.machine = machine
            self.impossible = impossible
            self.items = CoverageItem.all(in: coverage.program).filter { !impossible.contains($0) }
        }

        /// Items of a kind: exercised and in all.
        public func count(_ kind: CoverageItem.Kind) -> (exercised: Int, total: Int) {
            let ofKind = items.filter { $0.kind == kind }
            return (ofKind.filter(coverage.exercised.contains).count, ofKind.count)
        }

        /// Transition coverage (every kind but states and relaunches), in percent.
        public var transitionPercent: Double {
            let counts = [count(.transition), count(.timeout), count(.outcome)]
            let total = counts.map(\.total).reduce(0, +)
            return total == 0 ? 100 : Double(counts.map(\.exercised).reduce(0, +)) * 100 / Double(total)
        }

        /// The items not exercised, in spec order.
        public var missed: [CoverageItem] { items.filter { !coverage.exercised.contains($0) } }
    }

    /// The text: per machine a summary line, then `FILE:LINE:COLUMN: not exercised: …` per item.
    public static func text(_ machines: [Machine], file: String) -> String {
        var output = ""
        for report in machines {
            let program = report.coverage.program
            let kinds = CoverageItem.Kind.allCases.compactMap { kind -> String? in
                let (exercised, total) = report.count(kind)
                return total == 0 ? nil : "\(exercised)/\(total) \(kind.rawValue)s"
            }
            output +=
                "\(program.name.name): \(percent(report.transitionPercent)) of transitions exercised "
                + "(\(kinds.joined(separator: ", "))) by \(report.coverage.runs) run"
                + "\(report.coverage.runs == 1 ? "" : "s")\n"
            for item in report.missed {
                let location = item.location(in: report.machine, program: program)
                output +=
                    "\(file):\(location.line):\(location.column): not exercised: \(item.description(in: program))\n"
            }
        }
        return output
    }

    /// A percentage with one decimal, rounded down so that 100.0% means all.
    public static func percent(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The JSON document: `{"spec", "machines": [{"machine", "runs", "transitionPercent",
    /// "counts": {kind: {"exercised", "total"}}, "notExercised": [{"item", "kind", "line",
    /// "column"}], "cannotBeExercised": […]}]}`.
    public static func json(_ machines: [Machine], file: String, to output: inout some TextOutputStream) {
        JSONNode.object([
            "spec": .string(file),
            "machines": .array(machines.map(machineNode))
        ]).writeDocument(to: &output)
    }

    private static func machineNode(_ report: Machine) -> JSONNode {
        let program = report.coverage.program
        var counts: [String: JSONNode] = [:]
        for kind in CoverageItem.Kind.allCases {
            let (exercised, total) = report.count(kind)
            counts[kind.rawValue] = .object(["exercised": .int(exercised), "total": .int(total)])
        }
        func node(_ item: CoverageItem) -> JSONNode {
            let location = item.location(in: report.machine, program: program)
            return .object([
                "item": .string(item.description(in: program)), "kind": .string(item.kind.rawValue),
                "line": .int(location.line), "column": .int(location.column)
            ])
        }
        let impossible = CoverageItem.all(in: program).filter(report.impossible.contains)
        return .object([
            "machine": .string(program.name.name),
            "runs": .int(report.coverage.runs),
            "transitionPercent": .string(percent(report.transitionPercent)),
            "counts": .object(counts),
            "notExercised": .array(report.missed.map(node)),
            "cannotBeExercised": .array(impossible.map(node))
        ])
    }

    /// The states to mark on the machine's diagram, by position in the spec: each state with
    /// what is not exercised there (the state itself, or a transition, timeout, `done` or
    /// relaunch from it).
    public static func marks(_ report: Machine) -> [Int: [String]] {
        var marks: [Int: [String]] = [:]
        let program = report.coverage.program
        func mark(_ state: Int, _ text: String) { marks[program.states[state].specIndex, default: []].append(text) }
        func mark(compound: Int, _ text: String) {
            marks[program.compounds[compound].specIndex, default: []].append(text)
        }
        let retried = " (retries used up)"
        for item in report.missed {
            switch item {
            case .state(let state): mark(state, "not entered")
            case .transition(let state, let event, _, let fallback):
                mark(state, program.events[event].name + (fallback ? retried : ""))
            case .always(let state, let position, _): mark(state, "always #\(position + 1)")
            case .timeout(let state, let fallback): mark(state, "timeout" + (fallback ? retried : ""))
            case .relaunch(let state): mark(state, "relaunch")
            case .outcome(let state, _, _):
                let outcome = program.states[state]
                if let compound = outcome.outcomeOf {
                    let name = outcome.name.dropFirst(program.compounds[compound].name.count + 1)
                    mark(compound: compound, "outcome \(name)")
                }
            case .compound(let compound): mark(compound: compound, "not entered")
            case .outer(let compound, let event, _, let fallback):
                mark(compound: compound, program.events[event].name + (fallback ? retried : ""))
            case .outerTimeout(let compound, let fallback):
                mark(compound: compound, "timeout" + (fallback ? retried : ""))
            case .done(let compound, let position, _):
                mark(compound: compound, program.compounds[compound].done.count > 1 ? "done #\(position + 1)" : "done")
            case .outerAlways(let compound, let position, _): mark(compound: compound, "always #\(position + 1)")
            case .history(let history, let resumed):
                let written = program.histories[history]
                mark(compound: written.compound, "history '\(written.name)'" + (resumed ? " resumes" : " default"))
            case .machineWide(let event, _, _):
                for (index, state) in program.states.enumerated()
                where zip(state.scopes, state.transitions).contains(where: { $0 == .machine && $1.event == event }) {
                    mark(index, "machine-wide " + program.events[event].name)
                    break
                }
            }
        }
        return marks
    }
}
