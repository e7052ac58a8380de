import Foundation
import Testing

@testable import FlowSpecCore

/// Names that are accepted but tricky in Swift (keywords, names the generated types use for
/// their own members, standard-library type names as machines, names with separators) must
/// generate code that compiles in Swift 6 mode with warnings as errors and behaves as the spec
/// says, in both code forms; names ``SwiftName`` rejects must stop generation with an
/// `invalid-identifier` error.
@Suite("Hostile names in generated code")
struct HostileNameGenerationTests {
    // MARK: Accepted names

    /// Keywords as states, events, effects, conditions and sequences (`Machine`); the generated
    /// types' own member names (`State`); standard-library types as machines; separators.
    static let spec = """
        flowspec: 1
        machines:
          Machine:
            summary: Swift keywords as states, events, effects, conditions and sequences.
            initial: default
            defaults: { kind: input }
            events: [class, func, return, self, Self, Type, init, Protocol, in, is, as, try, throws, async, await, some, any, "true", "false", nil, _, default]
            conditions: [default, class, self, Self, Type, init, Protocol, in, "true", "false", nil, _, is, some, any, none, index]
            effects: [return, self, Self, Type, init, Protocol, await, "false", nil, _, some, any, default]
            on:
              Protocol: default
            states:
              default:
                on:
                  class: { to: class, if: class, effects: [return] }
                  func: { to: func, unless: default, effects: [self, Self] }
                  default: { to: "true", if: "true", unless: "false" }
              class:
                on:
                  return: { to: return, if: self, unless: Self, effects: [Type, init] }
                  self: self
              func:
                kind: task
                timeout: { after: 2s, to: return, effects: [Protocol], retry: { max: 1, then: nil } }
                on: { Self: Self }
              return:
                kind: choice
                always:
                  - { to: self, if: Type, unless: init, effects: [await] }
                  - { to: Self, if: Protocol }
                  - { to: init, if: in }
                  - { to: "true", unless: nil, effects: ["false", nil] }
                  - { to: func }
              self:
                on: { Type: Type, init: init }
              Self:
                on: { Protocol: Protocol }
              Type:
                on: { in: in, is: is, as: as, try: try }
              init:
                on: { throws: throws, async: async, await: await }
              Protocol:
                on:
                  some: { to: some, if: _, effects: [_, some, any] }
                  any: { to: any, if: any, unless: index }
              in:
                on: { "true": "true" }
              is:
                on: { "false": "false" }
              as:
                on: { nil: nil }
              try:
                on: { _: _ }
              throws:
                on: { class: { to: none, if: is, unless: some } }
              async:
                on: { class: { to: default, if: none, effects: [default] } }
              await:
                on: { class: done }
              some:
                on: { class: done }
              any:
                on: { class: done }
              "true":
                on: { _: _, "false": "false" }
              "false":
                on: { class: done }
              nil:
                on: { class: done }
              _:
                on: { nil: nil, class: done }
              none:
                on: { class: done }
              done:
                kind: terminal
            sequences:
              default: { states: [default, class, return] }
              self: { states: [self, Self, Type] }
              Type: { states: [init, Protocol] }
              in: { states: [in, is, as] }
              _: { states: [_] }
            persist:
              rawValue: string
              resume: { func: default }
          State:
            summary: Names the generated code uses for its own members.
            initial: State
            defaults: { kind: input }
            conditions: [State, Conditions, Machine, initial, kind, rawValue, hashValue, allCases, Swift, Bool, conditions, ordinal, self_]
            effects: [Effect, Step, Retry, rawValue, hashValue, allCases, RawValue, Swift, description, start, send]
            states:
              State:
                on:
                  Event: { to: Event, if: State, effects: [Effect, Step] }
                  start: { to: start, unless: Conditions, effects: [start, send] }
                  Swift: { to: Swift, if: Swift, effects: [Swift, RawValue] }
              Event:
                on: { Effect: Effect, Conditions: { to: Conditions, if: Machine } }
              Effect:
                on: { Kind: Kind, Machine: Machine }
              Conditions:
                on: { Step: Step }
              Kind:
                on: { Retry: Retry, Input: Input }
              Machine:
                on: { Sequence: Sequence }
              Step:
                kind: task
                timeout: { after: 250ms, to: reduce, effects: [Retry], retry: { max: 2, then: timeout } }
              Retry:
                on: { initial: initial }
              Input:
                on: { kind: kind }
              Sequence:
                on: { timeout: timeout }
              initial:
                on: { reduce: reduce }
              kind:
                on: { start: start }
              timeout:
                on: { send: send, allCases: allCases }
              reduce:
                kind: choice
                always:
                  - { to: rawValue, if: rawValue, unless: initial, effects: [rawValue] }
                  - { to: hashValue, if: hashValue, effects: [hashValue] }
                  - { to: allCases, if: allCases, effects: [allCases] }
                  - { to: RawValue, if: kind, unless: conditions }
                  - { to: ordinal, if: ordinal, effects: [description] }
                  - { to: Swift, if: Bool, unless: self_ }
                  - { to: State }
              start:
                on: { send: send, State: State }
              send:
                on: { rawValue: rawValue, hashValue: hashValue }
              rawValue:
                on: { allCases: allCases }
              hashValue:
                on: { RawValue: RawValue }
              allCases:
                on: { ordinal: ordinal }
              RawValue:
                on: { Swift: Swift }
              ordinal:
                on: { stateNames: stateNames }
              Swift:
                on: { Event: done }
              stateNames:
                on: { Event: done }
              done:
                kind: terminal
            sequences:
              State: { states: [State, Event, Effect] }
              Sequence: { states: [Sequence, initial, kind] }
              allCases: { states: [rawValue, hashValue, allCases] }
              rawValue: { states: [RawValue] }
              Swift: { states: [Swift] }
            persist:
              rawValue: string
              resume: { Step: State }
          Never:
            summary: No events at all.
            initial: Never
            states:
              Never:
                kind: choice
                always: [done]
              done:
                kind: terminal
          Duration:
            initial: Duration
            defaults: { kind: task }
            states:
              Duration:
                timeout: { after: 1500ms, to: seconds }
                on: { milliseconds: milliseconds }
              seconds:
                timeout: { after: 2h, to: milliseconds }
              milliseconds:
                kind: input
                on: { seconds: seconds }
          Int:
            initial: min
            defaults: { kind: input }
            states:
              min:
                on: { Int: Int, max: max }
              Int:
                on: { max: max }
              max:
                kind: terminal
            persist:
              rawValue: int
              restore: clamp
          String:
            initial: String
            defaults: { kind: input }
            states:
              String:
                on: { Character: Character }
              Character:
                on: { String: String }
            persist:
              rawValue: string
          Bool:
            initial: "false"
            defaults: { kind: input }
            conditions: ["true", "false", Bool]
            states:
              "false":
                on: { toggle: [{ to: "true", if: "true", unless: "false" }, { to: Bool, if: Bool }, "false"] }
              "true":
                on: { toggle: "false" }
              Bool:
                on: { toggle: "false" }
          Sendable:
            initial: Sendable
            defaults: { kind: input }
            states:
              Sendable:
                on: { Hashable: Hashable }
              Hashable:
                on: { Codable: Codable }
              Codable:
                on: { Sendable: Sendable }
          sign-in:
            summary: Names with separators.
            initial: sign-in
            defaults: { kind: input }
            conditions: [is-ready, a.b]
            effects: [log.event, my effect]
            states:
              sign-in:
                on:
                  sign-in: { to: a.b, if: is-ready, effects: [log.event] }
                  log out: { to: my state, unless: a.b, effects: [my effect, log.event] }
              a.b:
                on: { log out: my state }
              my state:
                on: { sign-in: sign-in }
            sequences:
              my steps: { states: [sign-in, a.b, my state] }
          Self:
            initial: Self
            states:
              Self:
                kind: terminal
          class:
            initial: Type
            defaults: { kind: input }
            states:
              Type:
                on: { class: class }
              class:
                kind: terminal
          _:
            initial: _
            states:
              _: { kind: terminal }
        """

    /// Starts each machine, sends events with keyword names, fires timeouts and prints states
    /// and effects by their raw values (the spec's names, in both forms).
    static let driver = #"""
        func show(_ label: Swift.String, _ state: Swift.String, _ effects: [Swift.String] = []) {
            Swift.print(label + ": " + state + (effects.isEmpty ? "" : " [" + effects.joined(separator: ", ") + "]"))
        }

        do {
            var (m, effects) = Machine.Machine.start()
            show("Machine start", m.state.rawValue)
            effects = m.send(.class, conditions: .init(class: true))
            show("Machine class", m.state.rawValue, effects.map(\.rawValue))
            effects = m.send(.return, conditions: .init(self_: true))
            show("Machine return", m.state.rawValue, effects.map(\.rawValue))
            m.send(.__)
            m.send(.nil)
            show("Machine _ nil", m.state.rawValue)
            m.send(.Protocol_)
            show("Machine Protocol", m.state.rawValue)
            effects = m.send(.func)
            show("Machine func", m.state.rawValue + " " + Machine.kind(of: m.state).rawValue, effects.map(\.rawValue))
            Swift.print("Machine timeout: \(m.armedTimeout!.after) to \(m.armedTimeout!.target.rawValue)")
            effects = m.fireTimeout(visit: m.visit, conditions: .init(nil: true))
            show("Machine retry", m.state.rawValue, effects.map(\.rawValue))
            effects = m.fireTimeout(visit: m.visit, conditions: .init(nil: true))
            show("Machine then", m.state.rawValue, effects.map(\.rawValue))
            effects = m.fireTimeout(visit: 0)
            show("Machine stale timeout", m.state.rawValue, effects.map(\.rawValue))
            Swift.print("Machine sequences: \(Machine.position(of: .class, in: .default)!) \(Machine.length(of: .self_)) \(Machine.position(of: .is, in: .in)!) \(Machine.position(of: .class, in: .__) == nil)")
            show("Machine restore func", Machine.Machine.restore(from: "func").machine.state.rawValue)
            show("Machine restore unknown", Machine.Machine.restore(from: "pwned").machine.state.rawValue)
        }

        do {
            var (m, effects) = State.Machine.start()
            show("State start", m.state.rawValue)
            effects = m.send(.Event, conditions: .init(State: true))
            show("State Event", m.state.rawValue, effects.map(\.rawValue))
            m.send(.Conditions, conditions: .init(Machine: true))
            m.send(.Step)
            show("State Step", m.state.rawValue)
            Swift.print("State timeout: \(m.armedTimeout!.after)")
            effects = m.fireTimeout(visit: m.visit)
            show("State reduce", m.state.rawValue, effects.map(\.rawValue))
            effects = m.send(.start)
            show("State start event", m.state.rawValue, effects.map(\.rawValue))
            m.send(.send)
            m.send(.rawValue_)
            m.send(.allCases_)
            show("State members", m.state.rawValue)
            m.send(.ordinal_)
            m.send(.stateNames_)
            show("State stateNames", m.state.rawValue)
            let reduced = State.reduce(State.Machine.start().machine, .event(.Swift_), conditions: .init(Swift: true))
            show("State reduce Swift", reduced.machine.state.rawValue, reduced.effects.map(\.rawValue))
            Swift.print("State sequences: \(State.position(of: .Effect, in: .State)!) \(State.length(of: .allCases_)) \(State.position(of: .RawValue_, in: .rawValue_)!)")
            show("State restore Step", State.Machine.restore(from: "Step").machine.state.rawValue)
        }

        do {
            show("Never start", Never.Machine.start().machine.state.rawValue)
        }

        do {
            var m = Duration.Machine.start().machine
            Swift.print("Duration start: \(m.state.rawValue) after \(m.armedTimeout!.after)")
            m.fireTimeout(visit: m.visit)
            Swift.print("Duration seconds: \(m.state.rawValue) after \(m.armedTimeout!.after)")
            m.fireTimeout(visit: m.visit)
            m.send(.seconds)
            show("Duration milliseconds seconds", m.state.rawValue)
        }

        do {
            var m = Int.Machine.start().machine
            m.send(.Int)
            Swift.print("Int: \(m.state.rawValue) \(Int.Machine.restore(from: 99).machine.state.rawValue) \(Int.Machine.restore(from: -5).machine.state.rawValue) \(Int.Machine.restore(from: nil).machine.state.rawValue)")
        }

        do {
            var m = String.Machine.start().machine
            m.send(.Character)
            show("String", m.state.rawValue + " " + String.Machine.restore(from: "Character").machine.state.rawValue)
        }

        do {
            var m = Bool.Machine.start().machine
            m.send(.toggle, conditions: .init(true: true))
            show("Bool true", m.state.rawValue)
            m.send(.toggle)
            m.send(.toggle, conditions: .init(Bool: true))
            show("Bool Bool", m.state.rawValue)
        }

        do {
            var m = Sendable.Machine.start().machine
            m.send(.Hashable)
            m.send(.Codable)
            show("Sendable", m.state.rawValue)
        }

        do {
            var (m, effects) = signIn.Machine.start()
            effects = m.send(.signIn, conditions: .init(isReady: true))
            show("sign-in", m.state.rawValue, effects.map(\.rawValue))
            effects = m.send(.logOut)
            show("sign-in log out", m.state.rawValue, effects.map(\.rawValue))
            var n = signIn.Machine.start().machine
            effects = n.send(.logOut)
            show("sign-in log out first", n.state.rawValue, effects.map(\.rawValue))
            Swift.print("sign-in sequence: \(signIn.position(of: .myState, in: .mySteps)!)")
        }

        do {
            show("Self", Self_.Machine.start().machine.state.rawValue)
            var m = `class`.Machine.start().machine
            m.send(.class)
            show("class", m.state.rawValue)
            show("_", __.Machine.start().machine.state.rawValue)
        }
        """#

    static let expectedOutput = """
        Machine start: default
        Machine class: class [return]
        Machine return: true [Type, init, false, nil]
        Machine _ nil: nil
        Machine Protocol: default
        Machine func: func task [self, Self]
        Machine timeout: 2.0 seconds to return
        Machine retry: func [Protocol]
        Machine then: nil [Protocol]
        Machine stale timeout: nil
        Machine sequences: 1 3 1 true
        Machine restore func: default
        Machine restore unknown: default
        State start: State
        State Event: Event [Effect, Step]
        State Step: Step
        State timeout: 0.25 seconds
        State reduce: State [Retry]
        State start event: start [start, send]
        State members: allCases
        State stateNames: stateNames
        State reduce Swift: Swift [Swift, RawValue]
        State sequences: 2 3 0
        State restore Step: State
        Never start: done
        Duration start: Duration after 1.5 seconds
        Duration seconds: seconds after 7200.0 seconds
        Duration milliseconds seconds: seconds
        Int: 1 2 0 0
        String: Character Character
        Bool true: true
        Bool Bool: Bool
        Sendable: Codable
        sign-in: a.b [log.event]
        sign-in log out: my state
        sign-in log out first: my state [my effect, log.event]
        sign-in sequence: 2
        Self: Self
        class: class
        _: _

        """

    @Test func noSpecialWordHasADigitSoNamesWithOneSkipTheLookups() throws {
        // SwiftName.make looks a name up among the special words only when it has no digit.
        #expect(SwiftName.specialWords.allSatisfy { word in !word.contains(where: \.isNumber) })
        #expect(try SwiftName.make("step1", scope: .enumCase).get() == SwiftName.make("step1", scope: .property).get())
        #expect(try SwiftName.make("default", scope: .enumCase).get().code == "`default`")
    }

    @Test("the hostile spec checks clean and generates")
    func hostileSpecChecksClean() throws {
        let result = SpecChecker().check(SourceFile(path: "hostile.yaml", text: Self.spec))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        let swift = try SwiftCompiler.generate(Self.spec, path: "hostile.yaml")
        #expect(swift.contains("enum Machine: FlowSpecRuntime.PersistentFlowSpec {"))
        #expect(swift.contains("`default` = \"default\""))
        #expect(swift.contains("self_ = \"self\""))
        #expect(swift.contains("enum Self_: FlowSpecRuntime.FlowSpec {"))
        #expect(swift.contains("enum signIn: FlowSpecRuntime.FlowSpec {"))
    }

    @Test("accepted tricky names compile and run", arguments: [GenerationOptions.Shape.switches, .tables])
    func acceptedNamesCompileAndRun(shape: GenerationOptions.Shape) throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = try Self.generate(Self.spec, path: "hostile.yaml", shape: shape)
        let program = try SwiftCompiler.compile(["Hostile.swift": swift, "main.swift": Self.driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Self.expectedOutput)
    }

    /// Every name ``SwiftName`` treats specially (keywords, suffixed names, reserved members and
    /// type names) plus contextual keywords and the identifiers the generated code declares or
    /// refers to. The first two lines broke generated code once (so they stay listed here even
    /// if ``SwiftName``'s sets change): `RawValue` as a case, in the table form a `Swift`,
    /// `State`, `stateNames` … member or an `index` condition, and the literal types as machines.
    static let extraNames = [
        "RawValue", "Swift", "State", "Event", "Effect", "stateNames", "stateNamesIndex", "eventNames",
        "eventNamesIndex", "effectNames", "effectNamesIndex", "ordinal", "index", "IntegerLiteralType",
        "FloatLiteralType", "BooleanLiteralType", "StringLiteralType", "UnicodeScalarType",
        "ExtendedGraphemeClusterType", "Foundation",
        "lazy", "weak", "unowned", "optional", "required", "convenience", "dynamic", "final", "infix",
        "prefix", "postfix", "indirect", "mutating", "nonmutating", "override", "get", "set", "willSet",
        "didSet", "associativity", "left", "right", "none", "unsafe", "isolated", "then", "yield",
        "distributed", "Sendable", "Never", "Int", "String", "Bool", "Duration", "Optional", "Element",
        "Index", "CodingKeys", "AllCases", "Conditions", "Kind", "Machine", "Step", "Retry", "Input",
        "ArmedTimeout", "Sequence", "initial", "kind", "timeout", "reduce", "start", "send", "restore",
        "state", "visit", "retries", "isTerminal", "position", "length", "restoredState", "resumed",
        "always", "timeoutStep", "take", "enter", "settle", "fireTimeout", "armedTimeout", "step",
        "members", "firstHolding", "holds", "makeStep", "integers", "lines", "index", "condition",
        "stateRows", "rows", "alwaysRanges", "timeouts", "kinds", "candidates", "lists",
        "sequenceMembers", "decoder", "encoder", "container", "raw", "value", "conditions", "effects",
        "event", "machine", "target", "after", "slot", "max", "fallback", "first", "next"
    ]

    static let trickyNames: [String] = SwiftName.keywords.union(SwiftName.suffixed)
        .union(SwiftName.reservedCaseNames).union(SwiftName.reservedPropertyNames)
        .union(SwiftName.reservedTypeNames).union(extraNames).sorted()

    /// One machine where each tricky name is a state, an event, an effect, a condition and a
    /// sequence, walked as a chain.
    static func everyRoleSpec() -> String {
        let names = trickyNames
        func quoted(_ name: String) -> String { "\"\(name)\"" }
        let list = names.map(quoted).joined(separator: ", ")
        var text = """
            flowspec: 1
            machines:
              Keywords:
                initial: \(quoted(names[0]))
                defaults: { kind: input }
                events: [\(list)]
                conditions: [\(list)]
                effects: [\(list)]
                states:

            """
        for (index, name) in names.enumerated() {
            let next = index + 1 < names.count ? quoted(names[index + 1]) : "finished"
            text += "      \(quoted(name)):\n"
            text +=
                "        on: { \(quoted(name)): { to: \(next), unless: \(quoted(name)), effects: [\(quoted(name))] } }\n"
        }
        text += "      finished:\n        kind: terminal\n    sequences:\n"
        for name in names { text += "      \(quoted(name)): { states: [\(quoted(name))] }\n" }
        return text
    }

    @Test(
        "every keyword and reserved name works as a state, event, effect, condition and sequence",
        arguments: [GenerationOptions.Shape.switches, .tables])
    func everyTrickyNameInEveryRole(shape: GenerationOptions.Shape) throws {
        let spec = Self.everyRoleSpec()
        let result = SpecChecker().check(SourceFile(path: "keywords.yaml", text: spec))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = try Self.generate(spec, path: "keywords.yaml", shape: shape)
        // Sends every event in order (each leads to the next state) and checks every effect
        // ran in order and every one-state sequence has its state at position 0.
        let driver = #"""
            var (machine, effects) = Keywords.Machine.start()
            var all: [Swift.String] = effects.map(\.rawValue)
            for event in Keywords.Event.allCases { all += machine.send(event).map(\.rawValue) }
            Swift.print(machine.state.rawValue, all == Keywords.Effect.allCases.map(\.rawValue), all.count)
            var first = 0
            for (sequence, state) in Swift.zip(Keywords.StateSequence.allCases, Keywords.State.allCases)
                where Keywords.position(of: state, in: sequence) == 0 && Keywords.length(of: sequence) == 1 {
                first += 1
            }
            Swift.print(first)

            """#
        let program = try SwiftCompiler.compile(["Keywords.swift": swift, "main.swift": driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        let count = Self.trickyNames.count
        #expect(run.stdout == "finished true \(count)\n\(count)\n")
    }

    /// A machine named after each tricky name a machine may have (the others are the
    /// `rejectedMachineNames` below). A machine's name is only its namespace's type name, the
    /// same in both code forms, so the (faster) switch form is enough.
    @Test("every keyword and reserved name a machine may have works as a machine name")
    func everyTrickyNameAsMachine() throws {
        var spec = "flowspec: 1\nmachines:\n"
        var machines: [SwiftName] = []
        for name in Self.trickyNames {
            guard case .success(let swiftName) = SwiftName.make(name, scope: .machine) else {
                #expect(Self.rejectedMachineNames.contains(name), "\(name) is rejected as a machine name")
                continue
            }
            machines.append(swiftName)
            spec += "  \"\(name)\":\n    initial: a\n    states: { a: { kind: terminal } }\n"
        }
        let result = SpecChecker().check(SourceFile(path: "machines.yaml", text: spec))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = try Self.generate(spec, path: "machines.yaml", shape: .switches)
        // Locals in a function, with names no machine has: top-level variables of main.swift
        // would clash with machines such as `first` (a type of the same module), and locals of
        // such names would hide them.
        var driver = "func drive() {\n    var kwStarted = 0\n"
        for machine in machines {
            driver += "    if \(machine.code).Machine.start().machine.state.rawValue == \"a\" { kwStarted += 1 }\n"
        }
        driver += "    Swift.print(kwStarted)\n}\ndrive()\n"
        let program = try SwiftCompiler.compile(["Machines.swift": swift, "main.swift": driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(machines.count)\n")
    }

    // MARK: Rejected names

    /// Names that cannot become identifiers in any scope.
    static let rejectedNames = [
        "it's", "say \"hi\"", "a }; func pwned() { //", "a{b}", "🚀", "go🚀", "1st", "2fa", "-1", "café",
        "Straße", "e\u{301}", "$money", "-", "...", " - . ", "line\nbreak", "tab\there", "back\\slash",
        "nul\u{0}", "go\u{200B}", "ｄefault", "`default`", "a/b", "a,b", "a:b", "a+b", "(x)", "#tag", "a@b",
        "x*/", "/*x", "\"\"\""
    ]

    /// Names rejected only as machine names (they would shadow what the compiler looks up).
    static let rejectedMachineNames = [
        "Swift", "Foundation", "Glibc", "Darwin", "FlowSpecRuntime", "FlowSpecTesting", "Testing",
        "IntegerLiteralType", "FloatLiteralType",
        "BooleanLiteralType", "StringLiteralType", "UnicodeScalarType", "ExtendedGraphemeClusterType"
    ]

    enum Role: String, CaseIterable {
        case machine, state, declaredEvent, derivedEvent, effect, condition, sequence

        var scope: SwiftName.Scope {
            switch self {
            case .machine: .machine
            case .condition: .property
            default: .enumCase
            }
        }
    }

    /// A YAML double-quoted scalar for any name.
    static func yamlQuoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x200B:
                text += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// An otherwise valid spec with `name` in one role.
    static func spec(with name: String, as role: Role) -> String {
        let bad = yamlQuoted(name)
        let machine = role == .machine ? bad : "M"
        let state = role == .state ? bad : "b"
        let event = role == .declaredEvent || role == .derivedEvent ? bad : "go"
        let effect = role == .effect ? bad : "log"
        let condition = role == .condition ? bad : "ready"
        let sequence = role == .sequence ? bad : "steps"
        return """
            flowspec: 1
            machines:
              \(machine):
                initial: a
                defaults: { kind: input }
            \(role == .derivedEvent ? "" : "    events: [\(event), back]\n")\
                conditions: [\(condition)]
                effects: [\(effect)]
                states:
                  a:
                    on: { \(event): { to: \(state), if: \(condition), effects: [\(effect)] } }
                  \(state):
                    on: { back: a }
                sequences:
                  \(sequence): { states: [a, \(state)] }

            """
    }

    @Test("a rejected name is an invalid-identifier error and nothing is generated", arguments: rejectedNames)
    func rejectedNameStopsGeneration(name: String) throws {
        for role in Role.allCases {
            try Self.expectRejected(name, as: role)
        }
    }

    @Test("names reserved for the top level are rejected as machine names only", arguments: rejectedMachineNames)
    func reservedMachineNameStopsGeneration(name: String) throws {
        try Self.expectRejected(name, as: .machine)
        for role in Role.allCases where role != .machine {
            let result = SpecChecker().check(SourceFile(path: "reserved.yaml", text: Self.spec(with: name, as: role)))
            #expect(result.diagnostics.isEmpty, "\(role): \(FlowSpecCoreTestsSupport.describe(result))")
            #expect(SpecGeneration.programs(result, diagnostics: result.diagnostics) != nil, "\(role)")
        }
    }

    @Test("the spec around a rejected name is valid on its own")
    func rejectionSpecIsOtherwiseValid() {
        for role in Role.allCases {
            let result = SpecChecker().check(
                SourceFile(path: "valid.yaml", text: Self.spec(with: "fine-name", as: role)))
            #expect(result.diagnostics.isEmpty, "\(role): \(FlowSpecCoreTestsSupport.describe(result))")
            #expect(SpecGeneration.programs(result, diagnostics: result.diagnostics) != nil, "\(role)")
        }
    }

    static func expectRejected(_ name: String, as role: Role) throws {
        guard case .failure = SwiftName.make(name, scope: role.scope) else {
            Issue.record("SwiftName.make accepts \(name.debugDescription) as a \(role) name")
            return
        }
        let result = SpecChecker().check(SourceFile(path: "rejected.yaml", text: spec(with: name, as: role)))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map(\.rule) == [.invalidIdentifier],
            "\(name.debugDescription) as \(role): \(FlowSpecCoreTestsSupport.describe(result))")
        #expect(errors.first?.subjects == [name], "\(name.debugDescription) as \(role)")
        #expect(
            SpecGeneration.programs(result, diagnostics: result.diagnostics) == nil,
            "\(name.debugDescription) as \(role): code was generated")
    }

    // MARK: Support

    static func generate(_ spec: String, path: String, shape: GenerationOptions.Shape) throws -> String {
        let result = FlowSpecCoreTestsSupport.check(FlowSpecCoreTestsSupport.source(path: path, text: spec))
        let programs = try #require(
            FlowSpecCoreTestsSupport.programs(result), "\(FlowSpecCoreTestsSupport.describe(result))")
        return FlowSpecCoreTestsSupport.swift(programs, path: path, shape: shape)
    }
}
