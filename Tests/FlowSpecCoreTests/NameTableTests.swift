import FlowSpecTestSupport
import Testing

@testable import FlowSpecCore

/// A machine's ``NameTable`` gives each text one ``Name``, numbered in the order texts were
/// first met, and finds it again: as a dictionary would, whatever the hashes do.
@Suite("Name table")
struct NameTableTests {
    @Test func theSameTextIsTheSameNameAndNamesAreNumberedInOrder() {
        var table = NameTable()
        let go = table.intern("go")
        let home = table.intern("home")
        #expect(table.intern("go") == go && go != home)
        #expect(go.index == 0 && home.index == 1 && table.count == 2)
        #expect(table[go] == "go" && table[home] == "home")
        #expect(table.name("home") == home && table.name("away") == nil && NameTable().name("go") == nil)
        #expect(
            table.text(Located(home, at: SourceLocation(line: 2, column: 5)))
                == Located("home", at: SourceLocation(line: 2, column: 5)))
    }

    /// Names compare as Swift strings: canonically equivalent spellings are one name, which
    /// keeps the first spelling.
    @Test func equivalentSpellingsAreOneName() {
        var table = NameTable()
        let first = table.intern("caf\u{E9}")
        #expect(table.intern("cafe\u{301}") == first && table.count == 1)
        #expect(table[first].unicodeScalars.count == 4)
        // Outside ASCII and equivalent to ASCII: the Kelvin sign is `K`.
        let kelvin = table.intern("\u{212A}elvin")
        #expect(table.intern("Kelvin") == kelvin && table.name("Kelvin") == kelvin && table.count == 2)
    }

    /// Random short names from a small alphabet, with 0 to 32 bits of hash kept (with none,
    /// every name shares a slot): across the table's growth, every name interned and looked up
    /// agrees with a dictionary of first positions.
    @Test(arguments: [1, 17, 5_000], [0, 1, 3, 32])
    func agreesWithADictionary(count: Int, hashBits: Int) {
        var random = SplitMix64(seed: UInt64(count * 100 + hashBits))
        let pieces = ["a", "b", "\u{E9}", "e\u{301}", "x"]
        func text() -> String { (0..<random.next() % 4 + 1).map { _ in pieces[Int(random.next() % 5)] }.joined() }
        var table = NameTable(hashBits: hashBits)
        var first: [String: Int32] = [:]
        var disagreements = Disagreements()
        for _ in 0..<count {
            let text = text()
            let name = table.intern(text)
            if first[text] == nil { first[text] = Int32(first.count) }
            disagreements.check(name.index == first[text], "interning \(text) gave \(name.index)")
        }
        #expect(table.count == first.count)
        for _ in 0..<count {
            let probe = text()
            disagreements.check(table.name(probe)?.index == first[probe], "looking up \(probe)")
        }
        #expect(disagreements.count == 0, "\(disagreements.summary)")
    }

    /// Every machine's names are its own: the names a decoded machine's transitions use read
    /// back as written, in a spec of two machines that use the same texts differently.
    @Test func eachMachineReadsItsNamesBackAsWritten() throws {
        let yaml = """
            flowspec: 1
            machines:
              A:
                initial: x
                on: { reset: x }
                states:
                  x: { kind: input, on: { go: y } }
                  y: { kind: input, on: { back: x, go: { to: zz, retry: { max: 2, then: x } } } }
              B:
                initial: y
                states:
                  y: { kind: task, on: { go: y }, timeout: { after: 1s, to: w } }
                  w: { kind: terminal }
            """
        let sink = DiagnosticCollector(file: "t.yaml")
        let document = try #require(YAMLReader().read(Array(yaml.utf8), into: sink))
        let spec = SpecDecoder().decode(document, into: sink)
        let a = try #require(spec.machines.first)
        let b = try #require(spec.machines.last)
        #expect(a.machineWide.map { a.names[$0.event.value] } == ["reset"])
        #expect(a.transitions(of: 1).map { a.names[$0.event.value] } == ["back", "go"])
        let retry = try #require(a.transitions(of: 1)[1].candidates.first)
        #expect(retry.target.map { a.names[$0.value] } == "zz" && retry.retry.map { a.names[$0.then.value] } == "x")
        #expect(b.states[0].timeout.map { b.names[$0.target.value] } == "w")
        #expect(b.names[try #require(b.transitions(of: 0).first).event.value] == "go")
    }
}
