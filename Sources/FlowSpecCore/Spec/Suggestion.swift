/// Finds the candidate closest to a misspelt name, for "did you mean" hints.
public enum Suggestion {
    /// The longest name, in Unicode scalars, that is given a hint.
    static let maxLength = 100

    /// The closest candidate within a small edit distance, or `nil`. Ties go to the
    /// earliest candidate, so the answer is deterministic.
    public static func closest<S: Sequence>(to name: String, among candidates: S) -> String?
    where S.Element == String {
        // Names are short; a long one gets no hint, so that hostile names of megabytes cannot
        // make the search (quadratic in the length) take minutes.
        let length = name.unicodeScalars.count
        guard length <= maxLength else { return nil }
        let limit = max(1, min(3, name.count / 3))
        var best: (name: String, distance: Int)?
        let lowered = name.lowercased()
        for candidate in candidates where candidate != name && candidate.utf8.count <= 4 * (maxLength + limit) {
            if candidate.lowercased() == lowered { return candidate }
            let distance = editDistance(name, candidate, cutoff: limit)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"` or an empty string.
    public static func hint<S: Sequence>(for name: String, among candidates: S) -> String
    where S.Element == String {
        didYouMean(closest(to: name, among: candidates))
    }

    /// `"; did you mean 'x'?"` for a suggestion, an empty string for none.
    public static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Edit distance counting an insertion, deletion, substitution or swap of two adjacent
    /// characters as one edit (optimal string alignment), giving up once it must exceed `cutoff`.
    static func editDistance(_ a: String, _ b: String, cutoff: Int) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if abs(a.count - b.count) > cutoff { return cutoff + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > cutoff { return cutoff + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}

/// A bound on the "did you mean" searches of one machine. A search compares a name with every
/// candidate, so without a bound a machine of thousands of states with as many misspelt
/// targets is quadratic. Once the comparisons run out, findings come without a hint: the same
/// ones on every run.
struct SuggestionBudget {
    /// The comparisons left: the default is about a second of searching, since a comparison
    /// takes a fraction of a microsecond.
    private(set) var comparisons: Int

    init(comparisons: Int = 2_000_000) {
        self.comparisons = comparisons
    }

    /// ``Suggestion/closest(to:among:)`` if the budget pays for comparing `name` with all
    /// `count` candidates (made only then), else `nil`, and no suggestion after it either.
    mutating func closest(to name: String, count: Int, among candidates: () -> [String]) -> String? {
        guard count <= comparisons else {
            comparisons = 0
            return nil
        }
        comparisons -= count
        return Suggestion.closest(to: name, among: candidates())
    }
}
