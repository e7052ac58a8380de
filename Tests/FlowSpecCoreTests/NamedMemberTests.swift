import Testing

@testable import FlowSpecCore

/// The table form names a member per value (`.s12`) up to ``TableEmitter/namedMemberLimit``
/// values, each costing compile time; `State` and `Compound` are judged together.
struct NamedMemberTests {
    /// A chain of `leaves` input states ending in a terminal one, in `groups` compound states
    /// (none when 0), with the events `go` and `back`.
    static func spec(leaves: Int, groups: Int) -> String {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    events: [go, back]\n    states:\n"
        func leaf(_ index: Int) -> String {
            index + 1 < leaves
                ? "s\(index): { kind: input, on: { go: s\(index + 1) } }" : "s\(index): { kind: terminal }"
        }
        guard groups > 0 else {
            for index in 0..<leaves { text += "      \(leaf(index))\n" }
            return text
        }
        let size = (leaves + groups - 1) / groups
        for group in 0..<groups {
            text += "      c\(group):\n        on: { back: s0 }\n        states:\n"
            for index in (group * size)..<min(leaves, (group + 1) * size) { text += "          \(leaf(index))\n" }
        }
        return text
    }

    static func generated(leaves: Int, groups: Int) throws -> String {
        let result = SpecChecker().check(SourceFile(path: "big.yaml", text: spec(leaves: leaves, groups: groups)))
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(FlowSpecCoreTestsSupport.describe(result))")
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        return FlowSpecCoreTestsSupport.swift(programs, path: "big.yaml")
    }

    @Test func aFlatMachineNamesUpToTheLimit() throws {
        let named = try Self.generated(leaves: TableEmitter.namedMemberLimit, groups: 0)
        #expect(named.contains("static var s999: Self { Self(ordinal: 999) }"))
        #expect(!named.contains("no member names"))

        let unnamed = try Self.generated(leaves: TableEmitter.namedMemberLimit + 1, groups: 0)
        #expect(!unnamed.contains("static var s0: Self"))
        #expect(unnamed.contains("Its 1001 values have no member names"))
        #expect(unnamed.contains("static var go: Self { Self(ordinal: 0) }"), "a few events keep their names")
    }

    @Test func compoundStatesCountWithTheStates() throws {
        let limit = TableEmitter.namedMemberLimit
        let named = try Self.generated(leaves: limit - 10, groups: 10)
        #expect(named.contains("static var s0: Self { Self(ordinal: 0) }"))
        #expect(named.contains("static var c9: Self { Self(ordinal: 9) }"))

        let unnamed = try Self.generated(leaves: limit - 9, groups: 10)
        #expect(!unnamed.contains("static var s0: Self"))
        #expect(!unnamed.contains("static var c0: Self"))
        #expect(unnamed.contains("Its 10 values have no member names"))
        #expect(unnamed.contains("static var back: Self { Self(ordinal: 1) }"))
    }

    @Test func anUnnamedMachineIsReachedByRawValue() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = try Self.generated(leaves: TableEmitter.namedMemberLimit, groups: 10)
        let driver = #"""
            var (machine, _) = Big.Machine.start()
            for _ in 0..<150 { machine.send(.go) }
            let group = Big.Compound(rawValue: "c1")!
            Swift.print(machine.state.rawValue, machine.isIn(group), Big.State(rawValue: "s150") == machine.state)
            machine.send(.back)
            Swift.print(machine.state.rawValue, machine.isIn(group), Big.Compound.allCases.count)

            """#
        let program = try SwiftCompiler.compile(["Big.swift": swift, "main.swift": driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "s150 true true\ns0 false 10\n")
    }
}
