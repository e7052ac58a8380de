import Testing

@testable import FlowSpecCore

/// `flowspec check` decodes each state while the YAML is read (``StateStreamer``) so that the
/// YAML tree never holds a whole large spec. These tests hold it to the promise that this
/// changes nothing a user sees: every fixture decodes to the same model with the same findings
/// as when the whole tree is read first, and the tricky cases (a repeated key, an anchor, an
/// alias, `defaults` after `states`, a machine over the state limit) are exercised directly.
@Suite("State streaming")
struct StateStreamingTests {
    static let fixtures = ["adversarial", "rules", "input", "golden", "graph", "reference", "nested", "lsp", "gen"]
        .flatMap { Fixtures.specs(under: $0) }

    /// Decoded from the whole tree, as before streaming.
    static func wholeTree(_ bytes: [UInt8], limits: YAMLLimits = YAMLLimits()) -> (Spec, [Diagnostic]) {
        let sink = DiagnosticCollector(file: "spec.yaml")
        guard let document = YAMLReader(limits: limits).read(bytes, into: sink) else {
            return (Spec(), sink.diagnostics)
        }
        let spec = SpecDecoder().decode(document, limits: limits, into: sink)
        return (spec, sink.diagnostics)
    }

    /// Decoded with states streamed, as `check` does; also returns the document's node count.
    static func streamed(_ bytes: [UInt8], limits: YAMLLimits = YAMLLimits()) -> (Spec, [Diagnostic], nodes: Int) {
        let sink = DiagnosticCollector(file: "spec.yaml")
        var streamer = StateStreamer(limits: limits, file: "spec.yaml")
        guard let document = YAMLReader(limits: limits).read(bytes, taking: &streamer, into: sink) else {
            return (Spec(), sink.diagnostics, 0)
        }
        let spec = SpecDecoder().decode(document, streamedStates: streamer.states, limits: limits, into: sink)
        return (spec, sink.diagnostics, document.nodes.count)
    }

    /// Every part of the model a check or the generator reads, as text (names as their text:
    /// streaming interns them in another order).
    static func describe(_ spec: Spec) -> String {
        var lines: [String] = []
        for machine in spec.machines {
            lines.append(
                "machine \(machine.name) exceeds=\(machine.exceedsLimits) default=\(String(describing: machine.defaultKind))"
            )
            for (index, state) in machine.states.enumerated() {
                lines.append(
                    "  state \(machine.names.text(state.name)) \(state.kind) kindAt=\(String(describing: state.kindLocation)) "
                        + "malformed=\(state.isMalformed) lost=\(state.hasLostTransitions) on=\(String(describing: state.onLocation))"
                )
                let names = machine.names
                for transition in machine.transitions(of: index) {
                    lines.append(
                        "    on \(names.text(transition.event)): "
                            + transition.candidates.map { describe($0, names) }.joined(separator: " | "))
                }
                if let always = state.always {
                    lines.append(
                        "    always@\(always.location): "
                            + always.value.map { describe($0, names) }.joined(separator: " | "))
                }
                if let timeout = state.timeout {
                    lines.append(
                        "    timeout \(String(describing: timeout.after)) -> \(names.text(timeout.target)) effects=\(timeout.effects) "
                            + "retry=\(String(describing: timeout.retry.map { "\(String(describing: $0.max)) \(names.text($0.then))" }))"
                    )
                }
                // How it nests: its parent, and what it writes about entering, leaving and ending.
                let parent = machine.nesting.parent(of: index).map(machine.name(of:)) ?? "-"
                lines.append(
                    "    parent \(parent) compound=\(machine.isCompound(index)) parallel=\(machine.isParallel(index))")
                if let details = machine.nesting.details[index] {
                    lines.append(
                        "    entry=\(details.entry) exit=\(details.exit) initial=\(String(describing: details.initial)) "
                            + "done=\(details.done.map { done in done.value.map { $0.target.map { names.text($0).value } ?? "-" }.joined(separator: ",") } ?? "-")"
                    )
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ candidate: Candidate, _ names: NameTable) -> String {
        "\(candidate.target.map { names.text($0) }.map(String.init(describing:)) ?? "stays")@\(candidate.location) if=\(String(describing: candidate.condition)) "
            + "unless=\(String(describing: candidate.unlessCondition)) effects=\(candidate.effects) "
            + "retry=\(String(describing: candidate.retry.map { "\(String(describing: $0.max)) \(names.text($0.then))" }))"
    }

    static func expectSame(
        _ bytes: [UInt8], limits: YAMLLimits = YAMLLimits(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let (wholeSpec, wholeFindings) = wholeTree(bytes, limits: limits)
        let (streamedSpec, streamedFindings, _) = streamed(bytes, limits: limits)
        #expect(describe(streamedSpec) == describe(wholeSpec), sourceLocation: sourceLocation)
        #expect(streamedFindings == wholeFindings, sourceLocation: sourceLocation)
    }

    @Test func aMachinesStatesAreHandedOverAsOneArrayWhenNothingWasLeftOut() throws {
        let spec = """
            flowspec: 1
            machines:
              A:
                initial: a
                states: { a: { on: { go: b } }, b: { kind: terminal } }
              B:
                initial: x
                states:
                  x: { on: { go: y } }
                  x: { on: { go: x } }
                  y: { kind: terminal }

            """
        let sink = DiagnosticCollector(file: "spec.yaml")
        var streamer = StateStreamer(limits: YAMLLimits(), file: "spec.yaml")
        let document = try #require(YAMLReader().read(Array(spec.utf8), taking: &streamer, into: sink))
        let decoded = SpecDecoder().decode(document, streamedStates: streamer.states, limits: YAMLLimits(), into: sink)
        // A's states whole; B's one by one, since its repeated `x` was left out of the mapping.
        #expect(streamer.states.segmentsHandedOverWhole == 1)
        #expect(
            decoded.machines.map { machine in machine.states.indices.map(machine.name(of:)) } == [
                ["a", "b"], ["x", "y"]
            ])
        Self.expectSame(Array(spec.utf8))
    }

    @Test("every fixture decodes to the same model and findings", arguments: fixtures)
    func sameAsWholeTree(spec: String) throws {
        Self.expectSame(try Fixtures.source(spec).bytes)
    }

    /// States inside compound states are streamed too: the tree keeps the compound states'
    /// bodies, with two nodes for each state inside, and every `states` mapping of a machine
    /// shares its names.
    @Test func statesInsideCompoundStatesLeaveTheTreeToo() {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: g0\n    events: [go, stop]\n    states:\n"
        for group in 0..<10 {
            text += "      g\(group):\n        on: { stop: g\((group + 1) % 10) }\n        states:\n"
            for index in 0..<50 {
                let next = index == 49 ? "g\((group + 1) % 10)" : "g\(group)s\(index + 1)"
                text += "          g\(group)s\(index): { kind: input, on: { go: \(next) } }\n"
            }
        }
        let (spec, findings, nodes) = Self.streamed(Array(text.utf8))
        #expect(spec.machines.first?.states.count == 510)
        #expect(findings.isEmpty)
        #expect(nodes < 2 * 500 + 10 * 12 + 20, "the bodies of states inside compound states must leave the tree")
        Self.expectSame(Array(text.utf8))
    }

    /// The regions of a parallel state, and the states inside them, are streamed as states
    /// inside compound states are; a machine whose only streamed states are in regions still
    /// shares its names with them.
    @Test func statesInsideParallelRegionsLeaveTheTreeToo() {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: both\n    events: [go, stop]\n    states:\n"
        text += "      both:\n        on: { stop: both }\n        parallel:\n"
        for region in 0..<4 {
            text += "          r\(region):\n            initial: r\(region)s0\n            states:\n"
            for index in 0..<50 {
                text +=
                    "              r\(region)s\(index): { kind: input, on: { go: r\(region)s\((index + 1) % 50) } }\n"
            }
        }
        text += "          leaf: { kind: input, on: { go: leaf } }\n"
        let (spec, findings, nodes) = Self.streamed(Array(text.utf8))
        let machine = spec.machines[0]
        #expect(machine.states.count == 1 + 4 * 51 + 1)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(machine.isParallel(0))
        #expect(machine.nesting.children(of: 0).map(machine.name(of:)) == ["r0", "r1", "r2", "r3", "leaf"])
        #expect(nodes < 2 * 205 + 4 * 12 + 40, "the bodies of states inside regions must leave the tree")
        Self.expectSame(Array(text.utf8))
    }

    @Test("the tree keeps two nodes per streamed state, not the state's body")
    func treeStaysSmall() {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    states:\n"
        for index in 0..<500 {
            text +=
                "      s\(index):\n        kind: input\n        on: { go: s\((index + 1) % 500), stop: { to: s0, effects: [log] } }\n"
        }
        let (spec, findings, nodes) = Self.streamed(Array(text.utf8))
        #expect(spec.machines.first?.states.count == 500)
        #expect(findings.isEmpty)
        #expect(nodes < 2 * 500 + 20, "the bodies of streamed states must leave the tree")
        Self.expectSame(Array(text.utf8))
    }

    @Test("defaults written after states still give streamed states their kind")
    func defaultsAfterStates() {
        let text = """
            flowspec: 1
            machines:
              M:
                initial: a
                states:
                  a: { on: { go: b } }
                  b: { always: [ { to: a } ] }
                defaults: { kind: input }
            """
        let (spec, findings, _) = Self.streamed(Array(text.utf8))
        #expect(spec.machines[0].states.map(\.kind) == [.input, .input])
        #expect(
            findings.contains {
                $0.message.hasPrefix("an `always` branch of 'b' has no `if`, `unless`, `in` or `notIn`")
            })
        #expect(spec.machines[0].states[1].isMalformed)
        Self.expectSame(Array(text.utf8))
    }

    @Test("a state under a repeated key reports nothing, as the key is not read")
    func repeatedKeys() {
        let text = """
            flowspec: 1
            machines:
              M:
                initial: a
                states:
                  a: { on: { go: a } }
                  a: { kind: bogus, on: { go: nowhere } }
                states:
                  z: { kind: alsoBogus }
              M:
                initial: q
                states:
                  q: { kind: wrong }
            """
        let (_, findings, _) = Self.streamed(Array(text.utf8))
        #expect(findings.map(\.rule) == [.duplicateKey, .duplicateKey, .duplicateKey])
        Self.expectSame(Array(text.utf8))
    }

    @Test("anchors, aliases and merge keys decode as in the whole tree")
    func anchorsAndAliases() {
        let text = """
            flowspec: 1
            machines:
              M: &machine
                initial: a
                states:
                  a: &body { kind: input, on: { go: b } }
                  b: *body
                  c: { on: *events, kind: input }
                  <<: { kind: input }
                  d: { kind: input, on: &events { go: a, stop: { to: zz } } }
                  e: { kind: input, on: *events }
              N: *machine
            """
        Self.expectSame(Array(text.utf8))
    }

    @Test("a machine over the state limit is reported and not decoded, as before")
    func overTheStateLimit() {
        var limits = YAMLLimits()
        limits.maxStates = 2
        let text = """
            flowspec: 1
            machines:
              M:
                initial: a
                states: { a: { kind: nope }, b: { kind: input }, c: { kind: input } }
              N:
                initial: a
                states: { a: { kind: input, on: { go: b } }, b: { kind: terminal } }
            """
        let (spec, findings, _) = Self.streamed(Array(text.utf8), limits: limits)
        #expect(findings.map(\.rule) == [.limitExceeded])
        #expect(spec.machines.map(\.states.count) == [0, 2])
        Self.expectSame(Array(text.utf8), limits: limits)
    }
}
