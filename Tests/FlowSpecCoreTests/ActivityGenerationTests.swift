import Foundation
import Testing

@testable import FlowSpecCore

/// The activities generated code says run (`FlowMachine.runningActivities`, in both forms of
/// code) are those the program says run in the same states (``FlowProgram/runningActivities(in:)``,
/// on the reference runtime), after every event of random runs of nested and parallel machines:
/// each activity once, outermost first, with the state that lists it. (When a run starts again
/// is the driver's: `ActivityDriverTests`.)
@Suite("Activities in generated code")
struct ActivityGenerationTests {
    typealias Gen = DifferentialSpecs
    static let spec = "Tests/Fixtures/gen/golden/activities.yaml"

    /// One run of a machine: its events by name.
    struct Run {
        var machine: String
        var key: String
        var events: [String]
    }

    @Test func generatedCodeRunsTheActivitiesTheProgramSays() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: generated code cannot be compiled")
            return
        }
        let file = try Fixtures.source(Self.spec)
        let result = SpecChecker().check(file)
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let tableText = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(
            of: "  Account:", with: "  AccountT:"
        )
        .replacingOccurrences(of: "  Player:", with: "  PlayerT:")
        let tableResult = SpecChecker().check(SourceFile(path: "tables.yaml", text: tableText))
        let twins = try #require(SpecGeneration.programs(tableResult, diagnostics: tableResult.diagnostics))
        var random = Gen.SplitMix64(seed: 0xAC71_F17E)
        var runs: [Run] = []
        var expected: [String: [String]] = [:]
        for program in programs + twins {
            for index in 0..<40 {
                var runtime = ProgramRun.start(program, conditions: []).0
                var events: [String] = []
                var lines: [String] = []
                for _ in 0..<30 {
                    let event = Int(random.next() % UInt64(program.events.count))
                    guard runtime.send(event, program, conditions: []) != nil else { continue }
                    events.append(program.events[event].name)
                    // A run is its activity and owner, numbered by how often it has started: an
                    // owner entered again (a new visit) starts a new run.
                    let now = program.runningActivities(in: runtime.states).map { running in
                        let owner =
                            running.owner >= 0
                            ? program.states[running.owner].name : program.compounds[-1 - running.owner].name
                        return "\(program.activities[running.activity].name)@\(owner)"
                    }
                    lines.append(now.joined(separator: " "))
                }
                let key = "\(program.name.name)#\(index)"
                runs.append(Run(machine: program.name.name, key: key, events: events))
                expected[key] = lines
            }
        }
        let source = SwiftGenerator.file(for: programs, options: GenerationOptions(sourcePath: Self.spec))
        let tables = SwiftGenerator.file(
            for: twins, options: GenerationOptions(sourcePath: "tables.yaml", shape: .tables))
        #expect(tables.contains("switch state.ordinal"), "the table form writes states by position")
        let actual = try Gen.runDriver([
            "activities.swift": source, "tables.swift": tables, "main.swift": Self.main(runs, programs + twins)
        ])
        var compared = 0
        for run in runs {
            #expect(actual[run.key] == expected[run.key], "\(run.key): \(run.events)")
            compared += expected[run.key]?.count ?? 0
        }
        #expect(compared > 1_000, "only \(compared) steps were compared")
    }

    /// A program that runs each run on the generated machine and prints, after each event,
    /// its running activities as `activity@owner`.
    static func main(_ runs: [Run], _ programs: [FlowProgram]) -> String {
        var text = """
            import FlowSpecRuntime

            func drive<Spec: FlowSpec>(_ spec: Spec.Type, _ key: String, _ events: [String], owner: (FlowActivityRun<Spec>, FlowMachine<Spec>) -> String)
            where Spec.Event: RawRepresentable, Spec.Event.RawValue == String {
                var machine = FlowMachine<Spec>.start().machine
                for name in events {
                    machine.send(Spec.Event(rawValue: name)!)
                    let now = machine.runningActivities.map { Spec.name(ofActivity: $0.activity) + "@" + owner($0, machine) }
                    print(key + "|" + now.joined(separator: " "))
                }
            }

            """
        for program in programs {
            let type = program.name.swiftName.code
            text += """
                func owner(_ run: FlowActivityRun<\(type)>, _ machine: FlowMachine<\(type)>) -> String {
                    for (state, visit) in zip(machine.states, machine.stateVisits) where visit == run.visit {
                        return \(type).name(ofState: state)
                    }
                    for state in machine.states {
                        for depth in 0..<\(type).depth(of: state) {
                            guard let compound = \(type).compound(around: state, atDepth: depth),
                                \(type).activities(ofCompound: compound).contains(run.activity)
                            else { continue }
                            return \(type).name(ofCompound: compound)
                        }
                    }
                    return "?"
                }

                """
        }
        for run in runs {
            let events = run.events.map { "\"\($0)\"" }.joined(separator: ", ")
            text += "drive(\(run.machine).self, \"\(run.key)\", [\(events)], owner: owner)\n"
        }
        return text
    }
}
