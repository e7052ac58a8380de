import Testing

@testable import FlowSpecCore

/// A finding's ``Diagnostic/Fix`` is what editors' quick fixes act on, so it must say what the
/// message says: a "did you mean 'x'?" comes with a fix that writes `x`, an undeclared name
/// with one that declares it in its category, a task without a timeout with one that adds it,
/// and nothing else comes with a fix.
@Suite("Findings' fixes")
struct FindingFixTests {
    static let fixtures =
        Fixtures.specs(under: "rules") + Fixtures.specs(under: "input") + Fixtures.specs(under: "adversarial")

    @Test("every fix says what its message says", arguments: fixtures)
    func fixMatchesMessage(path: String) throws {
        for finding in SpecChecker().check(try Fixtures.source(path)).diagnostics {
            // A task without a timeout gets one, to another state (the check chooses which).
            if finding.rule == .missingTimeout, finding.message.hasPrefix("task state '") {
                guard case .addTimeout(let target)? = finding.fix else {
                    Issue.record("\(path) \(finding.location): no timeout to add")
                    continue
                }
                #expect(target != finding.subjects.first, "\(path) \(finding.location)")
                continue
            }
            #expect(finding.fix == Self.expectedFix(finding), "\(path) \(finding.location): \(finding.message)")
        }
    }

    /// The fixes are not vacuous: the fixtures have findings of each kind of fix.
    @Test func theFixturesExerciseEveryKindOfFix() throws {
        var replaced: Set<Rule> = []
        var declared: Set<NameCategory> = []
        var timeouts = 0
        for path in Self.fixtures {
            for finding in SpecChecker().check(try Fixtures.source(path)).diagnostics {
                switch finding.fix {
                case .replace?: replaced.insert(finding.rule)
                case .declare(let category, _)?: declared.insert(category)
                case .addTimeout?: timeouts += 1
                case nil: break
                }
            }
        }
        #expect(replaced == [.unknownKey, .invalidValue, .invalidNesting, .invalidRun, .undefinedState])
        #expect(declared == Set(NameCategory.allCases))
        #expect(timeouts > 0)
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
