/// A hash of a text that agrees with `String`'s equality (canonical equivalence: `é` written
/// as one scalar or as `e` and an accent is one text, and so are `K` and the Kelvin sign), and
/// costs a few instructions a word for the texts specs are made of: names in ASCII.
///
/// `String.hashValue` runs SipHash through a `Hasher` for every text, about 250 instructions for
/// a short name; a spec hashes two or three names per transition. Here, a text whose canonical
/// form is ASCII is hashed as those bytes, 8 at a time, with a multiply-and-shift mix seeded
/// once per process (so a spec cannot be written to make its names collide); any other text
/// falls back to `hashValue`. Equal texts always take the same path: a text's canonical form is
/// ASCII exactly when each of its scalars is ASCII or one of the three whose canonical
/// decomposition is ASCII (``asciiEquivalent(of:)``).
enum TextHash {
    /// The hash of a text: equal texts (as `==` sees them) have equal hashes.
    static func hash(_ text: String) -> Int {
        var text = text
        if let hash = text.withUTF8({ asciiHash($0) }) { return hash }
        guard var ascii = asciiEquivalent(of: text) else { return text.hashValue }
        return ascii.withUTF8 { asciiHash($0) } ?? text.hashValue  // always ASCII by then
    }

    /// The ASCII text canonically equivalent to a non-ASCII one, if there is one. Only three
    /// scalars outside ASCII decompose canonically to ASCII (checked against Unicode's data
    /// for every scalar by `TextHashTests`): U+037E GREEK QUESTION MARK to `;`, U+1FEF GREEK
    /// VARIA to `` ` `` and U+212A KELVIN SIGN to `K`. Any other scalar outside ASCII keeps
    /// a text's canonical form outside ASCII.
    static func asciiEquivalent(of text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: scalars.append(scalar)
            case 0x037E: scalars.append(";")
            case 0x1FEF: scalars.append("`")
            case 0x212A: scalars.append("K")
            default: return nil
            }
        }
        return String(scalars)
    }

    /// The hash of ASCII bytes, or `nil` if a byte is not ASCII.
    static func asciiHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var high: UInt64 = 0
        var offset = 0
        guard let base = bytes.baseAddress else { return Int(bitPattern: UInt(finalized(state))) }
        let raw = UnsafeRawPointer(base)
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            high |= word
            state = mixed(state ^ word)
            offset += 8
        }
        if offset < bytes.count {
            // The last 1 to 7 bytes as one word: 4, 2 and 1 bytes loaded as they fit.
            var word: UInt64 = 0
            var shift: UInt64 = 0
            if bytes.count - offset >= 4 {
                word = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                shift = 32
                offset += 4
            }
            if bytes.count - offset >= 2 {
                word |=
                    UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) << shift
                shift += 16
                offset += 2
            }
            if offset < bytes.count { word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << shift }
            high |= word
            state = mixed(state ^ word)
        }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        return Int(bitPattern: UInt(finalized(state)))
    }

    /// A per-process seed, from the standard library's own random hashing seed (fixed when
    /// `SWIFT_DETERMINISTIC_HASHING` is set, as `hashValue` then is).
    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x666C_6F77_7370_6563 as UInt64)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }()

    private static func mixed(_ value: UInt64) -> UInt64 {
        let product = value &* 0xBF58_476D_1CE4_E5B9
        return product ^ (product >> 31)
    }

    /// Spreads every input bit over the low bits (which pick a slot) and the high ones (tags).
    private static func finalized(_ value: UInt64) -> UInt64 {
        var value = value ^ (value >> 29)
        value = value &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 32)
    }
}
