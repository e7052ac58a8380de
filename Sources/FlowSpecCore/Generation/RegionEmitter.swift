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
            "exitEffects(of state: State, through depth: Swift.Int)", "(state, depth)",
            steps.states.map(\.exits), &w)
        emitRanges(
            "entryEffects(of target: State, keeping keep: Swift.Int)", "(target, keep)",
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

    /// A function of a state and a depth returning a range of the effect list, one line per
    /// range that is not empty.
    private func emitRanges(_ signature: String, _ subject: String, _ ranges: [[Range<Int>]], _ w: inout SwiftWriter) {
        w.block("\(access)static func \(signature) -> Swift.Range<Swift.Int>") { w in
            let lines = ranges.indices.flatMap { index in
                ranges[index].indices.compactMap { depth in
                    ranges[index][depth].isEmpty
                        ? nil
                        : "case (\(state(index)), \(depth)): \(ranges[index][depth].lowerBound)..<\(ranges[index][depth].upperBound)"
                }
            }
            guard !lines.isEmpty else {
                w.line("0..<0")
                return
            }
            w.switchBlock("switch \(subject)") { w in
                for line in lines { w.line(line) }
                w.line("default: 0..<0")
            }
        }
    }

    private func emitEnteredStates(_ w: inout SwiftWriter) {
        w.block(
            "\(access)static func enteredStates(_ target: State, keeping keep: Swift.Int, into states: inout [State])"
        ) { w in
            w.switchBlock("switch (target, keep)") { w in
                for (index, lowered) in steps.states.enumerated() {
                    for (keep, entered) in lowered.enteredKeeping.enumerated() where entered != [index] {
                        w.line(
                            "case (\(state(index)), \(keep)): states += [\(entered.map(state).joined(separator: ", "))]"
                        )
                    }
                }
                w.line("default: states.append(target)")
            }
        }
    }

    private func emitParallelDone(_ w: inout SwiftWriter) {
        let done = steps.compoundDone.indices.filter {
            program.compounds[$0].isParallel && steps.compoundDone[$0] != nil
        }
        guard !done.isEmpty else { return }
        w.block("\(access)static func parallelDone(of compound: Compound, _: Tables) -> \(Self.stepType)") { w in
            w.switchBlock("switch compound") { w in
                for index in done {
                    w.line("case .\(program.compounds[index].swiftName.code): \(swift(steps.compoundDone[index]!))")
                }
                if done.count < program.compounds.count { w.line("default: nil") }
            }
        }
    }
}
