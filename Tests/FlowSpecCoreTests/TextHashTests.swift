import Testing

@testable import FlowSpecCore

/// ``TextHash`` must agree with `String`'s equality, which is canonical equivalence: equal
/// texts, however spelt or stored, hash alike. Tables built on it (names, repeated keys) are
/// otherwise silently wrong: one name would become two.
@Suite("Text hash")
struct TextHashTests {
    /// Canonically equivalent spellings, inside and outside ASCII, have one hash.
    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}"),
        ("K", "\u{212A}"),
        ("Kelvin_K", "\u{212A}elvin_\u{212A}"),
        ("a;b", "a\u{37E}b"),
        ("`x`", "\u{1FEF}x\u{1FEF}"),
        ("\u{212A}caf\u{E9}", "Kcafe\u{301}"),
        ("a_long_state_name_stored_on_the_heap", "a_long_state_name_stored_on_the_heap")
    ])
    func equalTextsHashAlike(first: String, second: String) {
        #expect(first == second)
        #expect(TextHash.hash(first) == TextHash.hash(second))
    }

    /// Every length from 0 to 40 bytes (each way the last word is loaded), and a text built in
    /// pieces against the same text written whole (stored differently, equal all the same).
    @Test func everyLengthAndEveryStorageHashesAlike() {
        for length in 0...40 {
            let whole = String(repeating: "s", count: length)
            var pieces = ""
            for _ in 0..<length { pieces += "s" }
            #expect(TextHash.hash(whole) == TextHash.hash(pieces), "length \(length)")
            if length > 0 {
                let changed = String(repeating: "s", count: length - 1) + "t"
                #expect(TextHash.hash(whole) != TextHash.hash(changed), "length \(length)")
            }
        }
    }

    /// The claim the hash rests on, checked against the standard library's own Unicode data:
    /// exactly three scalars outside ASCII are equivalent to an ASCII character, and
    /// ``TextHash/asciiEquivalent(of:)`` maps each to it.
    @Test func onlyThreeScalarsOutsideASCIIAreEquivalentToASCII() {
        let ascii = Set((0..<128).map { String(Unicode.Scalar(UInt8($0))) })
        var found: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if ascii.contains(String(scalar)) { found.append(value) }
        }
        #expect(found == [0x037E, 0x1FEF, 0x212A])
        for value in found {
            let text = String(Unicode.Scalar(value)!)
            #expect(TextHash.asciiEquivalent(of: text) == text)
        }
        #expect(TextHash.asciiEquivalent(of: "caf\u{E9}") == nil)
        #expect(TextHash.asciiEquivalent(of: "e\u{301}") == nil)
    }

    /// Names a large spec has spread over the slots: no two of 100,000 share a hash, and their
    /// low bits (which pick a slot) fill 4,096 buckets as evenly as random numbers would.
    @Test func namesSpreadOverTheSlots() {
        var hashes = Set<Int>()
        var buckets = [Int](repeating: 0, count: 4_096)
        for index in 0..<100_000 {
            let name = index.isMultiple(of: 2) ? "step\(index)" : "tap_\(index)_done"
            let hash = TextHash.hash(name)
            hashes.insert(hash)
            buckets[hash & 4_095] += 1
        }
        #expect(hashes.count == 100_000)
        // The seed changes from run to run, so the test bounds a statistic, not a bucket: with
        // 4,095 degrees of freedom, chi-square has a mean of 4,095 and a standard deviation of
        // about 90.5. Ten of those above is never reached by chance; a poor mix is far beyond.
        let expected = 100_000.0 / 4_096
        let chiSquare = buckets.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquare < 4_095 + 10 * 90.5)
    }
}
