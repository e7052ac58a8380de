import Testing

@testable import FlowSpecCore

/// A finding's ``Diagnostic/Fix`` is what editors' quick fixes act on, so it must say what the
/// message says: a "did you mean 'x'?" comes with a fix that writes `x`, an undeclared name
/// with one that declares it in its category, and nothing else comes with a fix.
@Suite("Findings' fixes")
struct FindingFixTests {
    static let fixtures =
        Fixtures.specs(under: "rules") + Fixtures.specs(under: "input") + Fixtures.specs(under: "adversarial")

    @Test("every fix says what its message says", arguments: fixtures)
    func fixMatchesMessage(path: String) throws {
        for finding in SpecChecker().check(try Fixtures.source(path)).diagnostics {
            #expect(finding.fix == Self.expectedFix(finding), "\(path) \(finding.location): \(finding.message)")
        }
    }

    /// The fixes are not vacuous: the fixtures have findings of each kind of fix.
    @Test func theFixturesExerciseEveryKindOfFix() throws {
        var replaced: Set<Rule> = []
        var declared: Set<NameCategory> = []
        for path in Self.fixtures {
            for finding in SpecChecker().check(try Fixtures.source(path)).diagnostics {
                switch finding.fix {
                case .replace?: replaced.insert(finding.rule)
                case .declare(let category, _)?: declared.insert(category)
                case nil: break
                }
            }
        }
        #expect(replaced == [.unknownKey, .invalidValue, .invalidNesting, .invalidRun, .undefinedState])
        #expect(declared == Set(NameCategory.allCases))
    }

    /// The fix a finding's message and subjects call for.
    static func expectedFix(_ finding: Diagnostic) -> Diagnostic.Fix? {
        if finding.rule == .undeclaredName {
            let category = NameCategory.allCases.first { finding.message.hasPrefix($0.rawValue + " ") }
            guard let category, let name = finding.subjects.first else { return nil }
            return .declare(category, name: name)
        }
        guard let start = finding.message.range(of: "did you mean '", options: .backwards) else { return nil }
        let rest = finding.message[start.upperBound...]
        guard rest.hasSuffix("'?") else { return nil }
        return .replace(with: String(rest.dropLast(2)))
    }
}
