import FlowSpecKernel

/// What a machine with parallel states adds to the switch form: what the kernel asks to run
/// several states at once (``FlowSpecKernel/FlowRules``' parallel members), written from the
/// same lowering `simulate` runs (``ProgramSteps``).
extension TransitionEmitter {
    func emitRegions(_ w: inout SwiftWriter) {
        guard program.hasParallel else { return }
        w.line("\(access)static let maximumLeaves = \(steps.maximumLeaves)")
        w.line("\(access)static let compoundCount = \(program.compounds.count)")
        w.block("\(access)static func compoundIndex(of compound: Compound) -> Swift.Int") { w in
            w.switchBlock("switch compound") { w in
                for (index, compound) in program.compounds.enumerated() {
                    w.line("case .\(compound.swiftName.code): \(index)")
                }
            }
        }
        emitParallelDepths(&w)
        emitDeclaringDepths(&w)
        emitRanges(
            "exitEffects(of state: State, through depth: Swift.Int)", state: "state", depth: "depth",
            steps.states.map(\.exits), &w)
        emitRanges(
            "entryEffects(of target: State, keeping keep: Swift.Int)", state: "target", depth: "keep",
            steps.states.map(\.entriesKeeping), &w)
        emitEnteredStates(&w)
        emitParallelDone(&w)
    }

    private func emitParallelDepths(_ w: inout SwiftWriter) {
        w.block("\(access)static func parallelDepth(around state: State) -> Swift.Int?") { w in
            w.switchBlock("switch state") { w in
                let depths = Set(steps.states.compactMap(\.parallelDepth)).sorted()
                for depth in depths {
                    let members = steps.states.indices.filter { steps.states[$0].parallelDepth == depth }
                    w.line("case \(members.map(state).joined(separator: ", ")): \(depth)")
                }
                if steps.states.contains(where: { $0.parallelDepth == nil }) { w.line("default: nil") }
            }
        }
    }

    /// Only transitions a state inherits need a line: its own stand at its depth, and no other
    /// is ever compared (states outside parallel states are alone).
    private func emitDeclaringDepths(_ w: inout SwiftWriter) {
        let inherited = steps.states.indices.flatMap { index in
            zip(steps.states[index].transitions, steps.states[index].declaredAt).compactMap { transition, depth in
                depth == steps.states[index].depth ? nil : (state: index, event: transition.event, depth: depth)
            }
        }
        w.block("\(access)static func declaringDepth(of state: State, on event: Event) -> Swift.Int") { w in
            guard !inherited.isEmpty else {
                w.line("depth(of: state)")
                return
            }
            w.switchBlock("switch (state, event)") { w in
                for entry in inherited {
                    w.line(
                        "case (\(state(entry.state)), .\(program.events[entry.event].swiftName.code)): \(entry.depth)")
                }
                w.line("default: depth(of: state)")
            }
        }
    }

    /// A function of a state and a depth returning a range of the effect list, one case per
    /// range that is not empty (``emitStateSwitch(signature:on:then:empty:_:lines:)``).
    private func emitRanges(
        _ signature: String, state: String, depth: String, _ ranges: [[Range<Int>]], _ w: inout SwiftWriter
    ) {
        emitStateSwitch(
            signature: "\(signature) -> Swift.Range<Swift.Int>", on: state, then: depth, empty: "0..<0", &w
        ) { index in
            ranges[index].indices.compactMap { at in
                ranges[index][at].isEmpty
                    ? nil : (at, "\(ranges[index][at].lowerBound)..<\(ranges[index][at].upperBound)")
            }
        }
    }

    /// A function with a switch on a state, then one on a depth: `lines(state)` gives the
    /// state's cases (a depth and its value), and `empty` is what every other case is. States
    /// with the same cases share one. (Nested switches, and shared cases, keep the file quick
    /// to compile: a switch on a tuple of the two takes the compiler seconds a hundred states.)
    func emitStateSwitch(
        signature: String, on state: String, then depth: String, empty: String, _ w: inout SwiftWriter,
        lines: (Int) -> [(depth: Int, value: String)]
    ) {
        var groups: [(states: [Int], lines: [(depth: Int, value: String)])] = []
        var groupOf: [String: Int] = [:]
        for index in steps.states.indices {
            let cases = lines(index)
            guard !cases.isEmpty else { continue }
            let key = cases.map { "\($0.depth):\($0.value)" }.joined(separator: "|")
            if let group = groupOf[key] {
                groups[group].states.append(index)
            } else {
                groupOf[key] = groups.count
                groups.append(([index], cases))
            }
        }
        w.block("\(access)static func \(signature)") { w in
            guard !groups.isEmpty else {
                w.line(empty)
                return
            }
            w.switchBlock("switch \(state)") { w in
                for group in groups {
                    w.line("case \(group.states.map(self.state).joined(separator: ", ")):")
                    w.indented { w in
                        w.switchBlock("switch \(depth)") { w in
                            for line in group.lines { w.line("case \(line.depth): \(line.value)") }
                            w.line("default: \(empty)")
                        }
                    }
                }
                if groups.map(\.states.count).reduce(0, +) < steps.states.count { w.line("default: \(empty)") }
            }
        }
    }

    private func emitEnteredStates(_ w: inout SwiftWriter) {
        // Appended one by one: an array literal appended would be built first, on the heap.
        emitStateSwitch(
            signature: "enteredStates(_ target: State, keeping keep: Swift.Int, into states: inout [State])",
            on: "target", then: "keep", empty: "states.append(target)", &w
        ) { index in
            steps.states[index].enteredKeeping.enumerated().compactMap { keep, entered in
                entered == [index]
                    ? nil : (keep, entered.map { "states.append(\(self.state($0)))" }.joined(separator: "; "))
            }
        }
    }

    private func emitParallelDone(_ w: inout SwiftWriter) {
        let done = steps.compoundDone.indices.filter {
            program.compounds[$0].isParallel && !steps.compoundDone[$0].isEmpty
        }
        guard !done.isEmpty else { return }
        w.block(
            "\(access)static func parallelDone(of compound: Compound, _ conditions: Conditions, _: Tables) -> \(Self.stepType)"
        ) { w in
            w.switchBlock("switch compound") { w in
                for index in done {
                    let compound = program.compounds[index]
                    let expression = candidates(
                        compound.done, steps.compoundDone[index].map(\.step), from: compound.states.lowerBound)
                    w.line("case .\(compound.swiftName.code): \(expression)")
                }
                if done.count < program.compounds.count { w.line("default: nil") }
            }
        }
    }
}
