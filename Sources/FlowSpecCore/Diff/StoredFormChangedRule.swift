/// `stored-form-changed`: a persisted machine changes the form of its stored raw value
/// (string ↔ int) or stops persisting: every value users' devices hold is read wrongly or
/// ignored.
enum StoredFormChangedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedFormChanged, defaultSeverity: .error,
        summary: "A persisted machine's stored raw value changed form, or it no longer persists.",
        reportedAt: "`persist` (`flowspec diff`), or the machine's name when `persist` is gone",
        finding: "`rawValue` changed between `int` and `string`, or `persist` was removed")

    static func find(in pair: MachinePair) -> [Diagnostic] {
        guard let old = pair.old.persist else { return [] }
        guard let new = pair.new.persist else {
            return [
                pair.finding(
                    .storedFormChanged,
                    "machine '\(pair.new.name.value)' no longer persists, so what users' devices stored under it "
                        + "is ignored at the next launch; keep `persist`, or clear the stored value on purpose",
                    at: pair.new.name.location, subjects: [pair.new.name.value],
                    notes: [.init("it persisted as `\(old.rawValue.rawValue)`")])
            ]
        }
        guard old.rawValue != new.rawValue else { return [] }
        return [
            pair.finding(
                .storedFormChanged,
                "machine '\(pair.new.name.value)' now stores `\(new.rawValue.rawValue)` raw values instead of "
                    + "`\(old.rawValue.rawValue)`, so every value users' devices stored restores `initial`; keep "
                    + "`rawValue: \(old.rawValue.rawValue)`",
                at: new.location, subjects: [pair.new.name.value])
        ]
    }
}
