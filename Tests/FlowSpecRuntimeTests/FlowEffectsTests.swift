import Testing

@testable import FlowSpecRuntime

/// `FlowEffects`, the effects an input ran: runs of the machine's effect list, read in order
/// whether they are held in place (up to three) or moved into an array (a fourth).
@Suite("Effects an input ran")
struct FlowEffectsTests {
    @Test func runsReadInOrderInPlaceThenInAnArray() {
        let list = Workspace.effectList
        let runs = [(1, 2), (12, 1), (0, 0), (6, 2), (3, 2), (13, 1), (9, 1)]
        var effects = FlowEffects<Workspace>()
        var expected: [Workspace.Effect] = []
        var held = 0
        for (start, count) in runs {
            effects.appendSecond(start, count)
            expected += list[start..<(start + count)]
            if count > 0 { held += 1 }
            #expect(Array(effects) == expected)
            #expect(effects.count == expected.count)
            #expect(effects.map { $0 } == expected, "iteration reads what the subscript reads")
            #expect((effects.spilled != nil) == (held > 3), "in place up to three runs, \(held) now")
        }
        #expect(effects != [.trackSignedIn])
        // `append` holds only a first run: the same effects, in an array from the second.
        var same = FlowEffects<Workspace>()
        for (start, count) in runs { same.append(start, count) }
        #expect(same.spilled != nil)
        #expect(same == effects, "equal by their effects, however they are stored")
        #expect(same.hashValue == effects.hashValue)
    }
}
