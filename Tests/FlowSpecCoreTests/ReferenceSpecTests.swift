import Testing

@testable import FlowSpecCore

/// `specs/app.yaml`, the product's three reference flows and the app composed of them, must
/// check clean and say what the reference flows' authors wrote down.
@Suite("Reference spec")
struct ReferenceSpecTests {
    let result: SpecChecker.Checked

    init() throws {
        result = SpecChecker().check(try Fixtures.source("specs/app.yaml"))
    }

    @Test func checksClean() {
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map { "\($0.location) \($0.message)" })")
    }

    @Test func describesTheThreeFlowsAndTheAppComposedOfThem() throws {
        #expect(result.spec.machines.map(\.name.value) == ["FirstRun", "LaunchAuth", "Chapters", "App"])
        let app = try #require(result.spec.machines.last)
        let runs = app.nesting.details.sorted { $0.key < $1.key }.compactMap(\.value.run?.value)
        #expect(runs == ["FirstRun", "LaunchAuth", "Chapters"])
    }

    @Test func authFlowHasATimeoutOnEveryTaskAndABoundedRetry() throws {
        let auth = try #require(result.spec.machines.first { $0.name.value == "LaunchAuth" })
        let tasks = auth.states.indices.filter { auth.states[$0].kind == .task }
        // Without task states the loop below would check nothing.
        try #require(!tasks.isEmpty, "LaunchAuth has no task states")
        for index in tasks {
            #expect(auth.states[index].timeout != nil, "\(auth.name(of: index)) has no timeout")
        }
        let loading = try #require(auth.states.indices.first { auth.name(of: $0) == "authLoading" })
        let retry = try #require(
            auth.transitions(of: loading).first { auth.names[$0.event.value] == "networkError" }?.candidates.first?
                .retry)
        #expect(retry.max?.value == 3)
        #expect(auth.machineWide.map { auth.names[$0.event.value] } == ["forceReset"])
        #expect(
            auth.machineWide.first?.candidates.first.flatMap { $0.target.map { auth.names[$0.value] } }
                == "unauthenticated")
    }

    @Test func chaptersAreForwardOnlyAndEndInATerminal() throws {
        let chapters = try #require(result.spec.machines.first { $0.name.value == "Chapters" })
        #expect(
            chapters.states.indices.map(chapters.name(of:))
                == ["handshake", "packetRun", "cipher", "firewall", "blueprint", "eventHorizon"])
        #expect(chapters.sequences.first?.forwardOnly == true)
        #expect(chapters.states.last?.kind == .terminal)
        #expect(chapters.persist?.rawValue == .int)
        #expect(chapters.persist?.restore == .clamp)
    }

    @Test func firstRunUsesTheCompletionFlagAsAConditionAndPersistsIt() throws {
        let firstRun = try #require(result.spec.machines.first { $0.name.value == "FirstRun" })
        let launch = try #require(firstRun.states.first)
        #expect(launch.kind == .choice)
        #expect(launch.always?.value.first?.condition?.value == "onboardingCompleted")
        let slide2 = try #require(firstRun.states.indices.first { firstRun.name(of: $0) == "slide2" })
        #expect(
            firstRun.transitions(of: slide2).first?.candidates.first?.effects.map(\.value) == [
                "persistOnboardingCompleted"
            ])
        #expect(firstRun.sequences.first?.states.map(\.value) == ["slide0", "slide1", "slide2"])
    }
}
