import Foundation
import Testing

@testable import FlowSpecCore

/// `schema/flowspec.schema.json`, the JSON Schema editors use for spec files, must accept
/// exactly what the decoder accepts. Each spec is read with flowspec's own YAML reader (YAML
/// 1.2 core schema, as the YAML language server reads it), turned into a JSON value and
/// validated with the small validator in `JSONSchemaValidator.swift`:
///
/// - a spec the decoder reads without a decoding finding validates;
/// - every decoding finding (`unknown-key`, `invalid-value`, `unsupported-version`,
///   `duplicate-key`) is matched by a schema error at the same place, unless the allow-list
///   below says why the schema cannot express it.
///
/// Specs with `yaml-syntax` or `limit-exceeded` findings have no document to validate.
@Suite("JSON Schema")
struct SchemaTests {
    static let schemaPath = "schema/flowspec.schema.json"

    /// The rules the decoder reports; the others come from the checks on the decoded model.
    static let decodingRules: Set<Rule> = [
        .yamlSyntax, .duplicateKey, .unknownKey, .invalidValue,
        .unsupportedVersion, .limitExceeded
    ]

    /// Decoding findings the schema cannot express, as `path rule line:column`, with the reason.
    /// An entry the schema does match is stale and fails the test.
    static let inexpressible: [String: String] = [
        // A `migrate` key is a stored value whose form depends on `rawValue` and which no state
        // may store; JSON keys are strings, and the schema does not know the states.
        "Tests/Fixtures/rules/invalid-value/found-migrate-keys.yaml invalid-value 24:18":
            "a `migrate` key a state stores depends on the states",
        "Tests/Fixtures/rules/invalid-value/found-migrate-keys.yaml invalid-value 24:28":
            "a `migrate` key's form depends on `rawValue`",
        "Tests/Fixtures/rules/invalid-value/found-migrate-keys.yaml invalid-value 24:50":
            "7 and 07 are different JSON keys",
        "Tests/Fixtures/rules/invalid-value/found-migrate-keys.yaml invalid-value 33:40":
            "a `migrate` key a state stores depends on the states",
        // JSON object keys are always strings: a state named by the YAML boolean `true` and one
        // named by the string "true" are the same JSON document, and only the second is a name.
        "Tests/Fixtures/rules/invalid-value/found-boolean-state-name.yaml invalid-value 11:7":
            "a key YAML reads as a boolean is the string key \"true\" in JSON",
        // JSON numbers have no integer/float distinction: 1.0 equals the `const` 1.
        "Tests/Fixtures/rules/unsupported-version/found-version-float.yaml unsupported-version 3:11":
            "1.0 is the number 1 in JSON",
        // A repeated mapping key: a JSON object cannot hold a key twice (flowspec's reader keeps
        // the first; YAML language servers report duplicate keys themselves). A name listed
        // twice in a declared list is a different matter: `uniqueItems` catches it.
        "Tests/Fixtures/rules/duplicate-key/found-event-twice-in-on.yaml duplicate-key 14:11":
            "a repeated mapping key is invisible in JSON",
        "Tests/Fixtures/rules/duplicate-key/found-event-twice-in-on.yaml duplicate-key 16:27":
            "a repeated mapping key is invisible in JSON",
        "Tests/Fixtures/rules/duplicate-key/found-key-twice-in-machine-and-candidate.yaml duplicate-key 9:5":
            "a repeated mapping key is invisible in JSON",
        "Tests/Fixtures/rules/duplicate-key/found-key-twice-in-machine-and-candidate.yaml duplicate-key 13:32":
            "a repeated mapping key is invisible in JSON",
        "Tests/Fixtures/rules/duplicate-key/found-machine-twice-and-state-twice-in-sequence.yaml duplicate-key 19:3":
            "a repeated mapping key is invisible in JSON",
        "Tests/Fixtures/rules/duplicate-key/found-two-states-of-one-name.yaml duplicate-key 12:7":
            "a repeated mapping key is invisible in JSON"
    ]

    static let fixtures: [String] =
        ["rules", "input", "reference", "golden", "gen/golden", "lsp"]
        .flatMap { Fixtures.specs(under: $0) } + ["specs/app.yaml"]

    // MARK: Checking one spec

    /// A spec read, decoded and validated.
    struct Outcome: Sendable {
        /// The decoding findings.
        var findings: [Diagnostic]
        /// The JSON view of the document and the schema's errors; `nil` after a `yaml-syntax` or
        /// `limit-exceeded` finding.
        var json: SpecJSON?
        var errors: [SchemaError]

        var isReadable: Bool { json != nil }

        /// Whether some schema error (or an error a failing `oneOf` tried) is at the finding's place.
        func isMatched(_ finding: Diagnostic) -> Bool {
            guard let json else { return false }
            return errors.flatMap(\.flattened).contains { json.locations(of: $0).contains(finding.location) }
        }
    }

    static let schema: JSONValue = {
        let url = Fixtures.packageRoot.appendingPathComponent(schemaPath)
        guard let data = try? Data(contentsOf: url), let value = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .null }
        return value
    }()

    static func check(_ file: SourceFile) -> Outcome {
        let findings = SpecChecker().check(file).diagnostics.filter { decodingRules.contains($0.rule) }
        guard !findings.contains(where: { $0.rule == .yamlSyntax || $0.rule == .limitExceeded }) else {
            return Outcome(findings: findings, json: nil, errors: [])
        }
        let sink = DiagnosticCollector(file: file.path)
        guard let document = YAMLReader().read(file.bytes, into: sink) else {
            return Outcome(findings: findings, json: nil, errors: [])
        }
        let json = SpecJSON(document: document)
        do {
            let validator = try JSONSchemaValidator(schema: schema)
            return Outcome(findings: findings, json: json, errors: validator.validate(json.value))
        } catch {
            return Outcome(
                findings: findings, json: json,
                errors: [SchemaError(path: [], message: "the schema is unusable: \(error)")])
        }
    }

    static func check(yaml: String) -> Outcome {
        check(SourceFile(path: "inline.yaml", text: yaml))
    }

    /// Every fixture, checked once.
    static let outcomes: [String: Outcome] = Dictionary(
        uniqueKeysWithValues: fixtures.map { path in
            let file = (try? Fixtures.source(path)) ?? SourceFile(path: path, bytes: [])
            return (path, check(file))
        })

    static let cleanFixtures = fixtures.filter { outcomes[$0]!.isReadable && outcomes[$0]!.findings.isEmpty }
    static let faultyFixtures = fixtures.filter { outcomes[$0]!.isReadable && !outcomes[$0]!.findings.isEmpty }

    static func key(_ path: String, _ finding: Diagnostic) -> String {
        "\(path) \(finding.rule.rawValue) \(finding.location)"
    }

    static func describe(_ errors: [SchemaError]) -> String {
        errors.isEmpty ? "  (no error)" : errors.map { "  \($0)" }.joined(separator: "\n")
    }

    // MARK: The schema file

    @Test("the schema is JSON and uses only keywords the validator implements")
    func schemaIsWellFormed() throws {
        let data = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(Self.schemaPath))
        _ = try JSONSerialization.jsonObject(with: data)
        let schema = try JSONDecoder().decode(JSONValue.self, from: data)
        guard case .object(let root) = schema else {
            Issue.record("the schema is not a JSON object")
            return
        }
        if case .string(let dialect)? = root["$schema"] {
            #expect(dialect == "https://json-schema.org/draft/2020-12/schema")
        } else {
            Issue.record("the schema does not say its dialect in `$schema`")
        }
        let problems = JSONSchemaValidator.problems(in: schema)
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
        _ = try JSONSchemaValidator(schema: schema)
    }

    @Test("the schema's keys and words are the decoder's")
    func vocabularyMatchesDecoder() {
        let schema = Self.schema
        func node(_ pointer: String) -> JSONValue {
            guard let value = JSONSchemaValidator.resolve(pointer, in: schema) else {
                Issue.record("the schema has no \(pointer)")
                return .null
            }
            return value
        }
        func keys(_ pointer: String) -> [String] {
            guard case .object(let properties) = node(pointer + "/properties") else { return [] }
            return properties.keys.sorted()
        }
        func words(_ pointer: String) -> [String] {
            guard case .array(let values) = node(pointer + "/enum") else { return [] }
            return values.compactMap { if case .string(let word) = $0 { word } else { nil } }.sorted()
        }
        #expect(keys("#") == SpecDecoder.topLevelKeys.sorted())
        #expect(keys("#/$defs/machine") == SpecDecoder.machineKeys.sorted())
        #expect(keys("#/$defs/machine/properties/defaults") == ["kind"])
        #expect(keys("#/$defs/state") == StateDecoder.stateKeys.sorted())
        #expect(keys("#/$defs/candidate") == TransitionDecoder.candidateKeys.sorted())
        #expect(keys("#/$defs/timeout") == TransitionDecoder.timeoutKeys.sorted())
        #expect(keys("#/$defs/retry") == TransitionDecoder.retryKeys.sorted())
        #expect(keys("#/$defs/sequence") == SectionDecoder.sequenceKeys.sorted())
        #expect(keys("#/$defs/persist") == SectionDecoder.persistKeys.sorted())
        #expect(keys("#/$defs/requirement") == SectionDecoder.requirementKeys.sorted())
        for kind in RequirementKind.allCases where kind.mappingKeys.count > 0 {
            let mapping = "#/$defs/requirement/properties/\(kind.key)"
            // `never` is a list of states or a mapping: the mapping is its second form.
            let found = kind == .never ? keys(mapping + "/oneOf/1") : keys(mapping)
            #expect(found == kind.mappingKeys.sorted(), "\(kind.key)")
        }
        #expect(keys("#/$defs/severity") == Rule.allCases.map(\.rawValue).sorted())
        #expect(words("#/$defs/severityLevel") == SeverityLevel.allCases.map(\.rawValue).sorted())
        #expect(words("#/$defs/stateKind") == StateKind.allCases.map(\.rawValue).sorted())
        #expect(words("#/$defs/waitingKind") == StateKind.waitingKinds.map(\.rawValue).sorted())
        #expect(
            words("#/$defs/persist/properties/rawValue")
                == [Persist.RawValue.int, .string].map(\.rawValue).sorted())
        #expect(
            words("#/$defs/persist/properties/restore")
                == [Persist.Restore.clamp, .initial].map(\.rawValue).sorted())
    }

    // MARK: Fixtures

    @Test("a fixture the decoder accepts validates", arguments: cleanFixtures)
    func cleanFixtureValidates(path: String) throws {
        let outcome = try #require(Self.outcomes[path])
        #expect(outcome.errors.isEmpty, "\(path) is rejected by the schema:\n\(Self.describe(outcome.errors))")
    }

    @Test("each decoding finding of a fixture is a schema error there", arguments: faultyFixtures)
    func faultyFixtureIsRejected(path: String) throws {
        let outcome = try #require(Self.outcomes[path])
        for finding in outcome.findings {
            let key = Self.key(path, finding)
            let matched = outcome.isMatched(finding)
            if let reason = Self.inexpressible[key] {
                #expect(
                    !matched, "\(key) is on the allow-list (\(reason)) but the schema now catches it: remove the entry")
            } else {
                #expect(
                    matched,
                    """
                    \(key) (\(finding.message)) has no schema error at its place; the schema says:
                    \(Self.describe(outcome.errors))
                    """)
            }
        }
        let expressible = outcome.findings.contains { Self.inexpressible[Self.key(path, $0)] == nil }
        #expect(
            outcome.errors.isEmpty == !expressible, "\(path): the schema should \(expressible ? "reject" : "accept") it"
        )
    }

    @Test("every allow-list entry names a finding of a fixture")
    func allowListIsCurrent() {
        let findings = Set(
            Self.faultyFixtures.flatMap { path in Self.outcomes[path]!.findings.map { Self.key(path, $0) } })
        for entry in Self.inexpressible.keys.sorted() {
            #expect(findings.contains(entry), "the allow-list entry '\(entry)' matches no finding: remove it")
        }
    }

    @Test("the fixtures cover every kind of decoding finding (counts are printed)")
    func fixturesCoverDecodingFindings() {
        let rules = Set(Self.faultyFixtures.flatMap { Self.outcomes[$0]!.findings.map(\.rule) })
        #expect(rules == [.unknownKey, .invalidValue, .unsupportedVersion, .duplicateKey])
        #expect(Self.cleanFixtures.count > 100)
        let unreadable = Self.fixtures.filter { !Self.outcomes[$0]!.isReadable }
        let findings = Self.faultyFixtures.flatMap { Self.outcomes[$0]!.findings }
        print(
            """
            SchemaTests: \(Self.fixtures.count) specs: \(Self.cleanFixtures.count) clean and valid, \
            \(Self.faultyFixtures.count) with \(findings.count) decoding findings \
            (\(findings.count - Self.inexpressible.count) matched by schema errors, \
            \(Self.inexpressible.count) allow-listed), \(unreadable.count) not readable YAML
            """)
    }

    // MARK: Cases the fixtures do not show

    /// Specs the decoder reads cleanly (`true`) or with a decoding finding (`false`); the schema
    /// must agree, and place an error at each finding.
    static let agreementCases: [String: (valid: Bool, yaml: String)] = [
        "every default and short form": (
            true,
            spec(
                """
                conditions: ready
                events: [go]
                effects: log
                on: { go: a }
                states:
                  a:
                  b: ~
                  c: { kind: choice, always: [a, { to: b, unless: ready }] }
                  d: { on: { go: [b, { to: a, if: ready, effects: log }] }, timeout: { after: 010s, to: a } }
                sequences: { s: { states: a } }
                persist: { rawValue: string, restore: initial, resume: { b: a }, migrate: { oldA: a } }
                require:
                  - reachable: a
                  - alwaysReachable: []
                  - within: { from: a, to: b, max: 1h }
                severity: { dead-end: off, no-way-out: note }
                """)
        ),
        "file-level severity": (true, "flowspec: 1\nseverity: { unused-name: error }\n" + machines("states: { a: }")),
        "a choice by default with its own kind may have on":
            (true, spec("defaults: { kind: choice }\nstates: { a: { kind: input, on: { go: a } } }")),
        "always with conditions on states that wait": (
            true,
            spec(
                """
                conditions: [ready, busy]
                states:
                  a: { kind: input, always: { to: b, if: ready }, on: { go: b } }
                  b: { timeout: { after: 1s, to: a }, always: [{ to: a, unless: busy, effects: [] }] }
                  c: { always: [{ to: a, if: ready }], states: { d: { kind: input } } }
                  e: { always: { to: a, unless: ready }, parallel: { r: { kind: input }, s: { kind: input } } }
                """)
        ),
        "an always branch without a condition on an input state": (
            false, spec("conditions: [ready]\nstates: { a: { kind: input, always: [{ to: a, if: ready }, a] } }")
        ),
        "an always branch without a condition under an input default": (
            false, spec("defaults: { kind: input }\nstates: { a: { always: { to: a } } }")
        ),
        "empty file": (false, ""),
        "a list at the top": (false, "- flowspec: 1\n"),
        "a machine with no value": (false, "flowspec: 1\nmachines: { M: }\n"),
        "merge key in states": (false, spec("states:\n  a:\n  <<: { b: }")),
        "merge key in severity": (false, spec("states: { a: }\nseverity: { <<: { dead-end: off } }")),
        "empty state name": (false, spec("states: { '': , a: }")),
        "empty initial": (false, machines("initial: ''\nstates: { a: }", initial: nil)),
        "number initial": (false, machines("initial: 42\nstates: { a: }", initial: nil)),
        "null target": (false, spec("states: { a: { on: { go: } } }")),
        "empty candidate list": (false, spec("states: { a: { kind: choice, always: [] } }")),
        "null candidate": (false, spec("states: { a: { on: { go: [a, ~] } } }")),
        "condition listed twice": (false, spec("conditions: [c, c]\nstates: { a: }")),
        "conditions as a mapping": (false, spec("conditions: { c: d }\nstates: { a: }")),
        "unknown rule": (false, spec("states: { a: }\nseverity: { dead-ends: off }")),
        "unknown severity": (false, spec("states: { a: }\nseverity: { dead-end: fatal }")),
        "two requirements in one item": (
            false, spec("states: { a: }\nrequire: [ { reachable: a, alwaysReachable: a } ]")
        ),
        "an empty requirement": (false, spec("states: { a: }\nrequire: [ {} ]")),
        "require as a mapping": (false, spec("states: { a: }\nrequire: { reachable: a }")),
        "within without max": (false, spec("states: { a: }\nrequire: [ { within: { from: a, to: a } } ]")),
        "retry of 0": (false, spec("states: { a: { on: { go: { to: a, retry: { max: 0, then: a } } } } }")),
        "retry beyond Int": (
            false, spec("states: { a: { on: { go: { to: a, retry: { max: 99999999999999999999, then: a } } } } }")
        ),
        "zero duration with leading zeros": (false, spec("states: { a: { timeout: { after: 000ms, to: a } } }")),
        "a null timeout": (false, spec("states: { a: { timeout: } }")),
        "numeric summary": (false, spec("summary: 3\nstates: { a: }")),
        "null resume target": (false, spec("states: { a: }\npersist: { rawValue: int, resume: { a: } }")),
        "null migrate target": (false, spec("states: { a: }\npersist: { rawValue: string, migrate: { old: } }")),
        "choice by default with on": (false, spec("defaults: { kind: choice }\nstates: { a: { on: { go: a } } }")),
        "clamp with string": (false, spec("states: { a: }\npersist: { rawValue: string, restore: clamp }")),
        "null defaults": (false, spec("defaults:\nstates: { a: }")),
        // Nesting: a compound state's keys, at any depth.
        "nested states": (
            true,
            spec(
                """
                effects: [track, clear, log]
                states:
                  a: { kind: input, on: { go: b } }
                  b:
                    initial: c
                    entry: track
                    exit: [clear, log]
                    on: { back: a }
                    timeout: { after: 5m, to: a }
                    done: a
                    states:
                      c: { kind: input, on: { go: d }, entry: [] }
                      d:
                        states:
                          e: { kind: task, timeout: { after: 1s, to: f } }
                          f: { kind: terminal, exit: log }
                """)
        ),
        "a compound state under a choice default may have on": (
            true, spec("defaults: { kind: choice }\nstates: { a: { on: { go: a }, states: { b: { always: a } } } }")
        ),
        "done as a list of candidates": (
            true,
            spec(
                "conditions: [x]\neffects: [y]\nstates: { a: { done: [{ to: c, if: x, effects: [y] }, c], states: { b: { kind: terminal } } }, c: { kind: terminal } }"
            )
        ),
        "done as one candidate": (
            true,
            spec(
                "effects: [y]\nstates: { a: { done: { to: c, effects: [y] }, states: { b: { kind: terminal } } }, c: { kind: terminal } }"
            )
        ),
        "done as a list of lists": (false, spec("states: { a: { done: [[b]], states: { b: { kind: terminal } } } }")),
        "done with a candidate without to": (
            false, spec("effects: [y]\nstates: { a: { done: [{ effects: [y] }], states: { b: { kind: terminal } } } }")
        ),
        "initial as a number": (false, spec("states: { a: { initial: 42, states: { b: } } }")),
        "entry as a mapping": (false, spec("effects: [e]\nstates: { a: { entry: { e: 1 } } }")),
        "exit as a number": (false, spec("effects: [e]\nstates: { a: { exit: 3 } }")),
        "states inside as a list": (false, spec("states: { a: { states: [b] } }")),
        "states inside with no value": (false, spec("states: { a: { states: } }")),
        "an unknown key in a state inside": (false, spec("states: { a: { states: { b: { knd: input } } } }")),
        "an empty name inside": (false, spec("states: { a: { states: { '': , b: } } }")),
        "a merge key inside": (false, spec("states:\n  a:\n    states:\n      b:\n      <<: { c: }")),
        "a choice by default inside with on": (
            false,
            spec("defaults: { kind: choice }\nstates: { a: { states: { b: { states: { c: { on: { go: a } } } } } } }")
        ),
        "a task by default inside with always": (
            false, spec("states: { a: { states: { b: { always: a } } } }")
        ),
        "an input state inside with always": (
            false, spec("states: { a: { states: { b: { kind: input, always: a } } } }")
        ),
        "a choice state inside with on": (
            false, spec("states: { a: { states: { b: { kind: choice, on: { go: a }, always: a } } } }")
        ),
        "invalid-nesting in severity": (true, spec("states: { a: }\nseverity: { invalid-nesting: warning }")),
        // History states: `deep` and `default` on them, targets naming them, at any depth.
        "history states": (
            true,
            spec(
                """
                states:
                  area:
                    initial: home
                    states:
                      home: { kind: input, on: { next: feed } }
                      feed: { kind: input, on: { leave: reauth } }
                      resume: { kind: history, deep: true, summary: where the flow left area }
                      top: { kind: history, default: feed }
                      inner:
                        states:
                          page: { kind: input }
                          back: { kind: history, deep: false }
                  reauth: { kind: input, on: { again: resume, back: top, page: back } }
                """)
        ),
        "history as the default kind": (false, spec("defaults: { kind: history }\nstates: { a: }")),
        "deep as a word": (
            false, spec("states: { a: { states: { b: , h: { kind: history, deep: yes } } } }")
        ),
        "default as a list": (
            false, spec("states: { a: { states: { b: , h: { kind: history, default: [b] } } } }")
        ),
        "invalid-history in severity": (true, spec("states: { a: }\nseverity: { invalid-history: note }")),
        "a parallel state with its regions": (
            true,
            spec(
                "states: { a: { on: { go: a }, done: a, parallel: { r: { states: { x: { kind: input } } }, s: { kind: input } } } }"
            )
        ),
        "an unknown key in a region's state": (
            false, spec("states: { a: { parallel: { r: { states: { x: { knd: input } } }, s: } } }")
        ),
        "regions as a list": (false, spec("states: { a: { parallel: [r, s] } }")),
        "a choice state by default in a region, with on": (
            false, spec("defaults: { kind: choice }\nstates: { a: { parallel: { r: { on: { go: a } }, s: } } }")
        ),
        "invalid-parallel and region-conflict in severity": (
            true, spec("states: { a: }\nseverity: { invalid-parallel: warning, region-conflict: off }")
        )
    ]

    /// What `invalid-nesting` finds is a check's, not the schema's: each of these specs is
    /// decoded with that finding and no decoding finding, and the schema accepts it (else an
    /// editor would underline twice, or what the checker explains better).
    static let nestingCases: [String: String] = [
        "a name used twice at two depths": spec("states: { a: { states: { b: , a: } } }"),
        "a compound state with a kind": spec("states: { a: { kind: input, states: { b: } } }"),
        "a compound state of kind choice with on": spec(
            "states: { a: { kind: choice, on: { go: a }, states: { b: } } }"),
        "no states inside": spec("states: { a: { states: {} } }"),
        "an initial not inside": spec("states: { a: { initial: a, states: { b: } } }"),
        "initial and done on a state with none inside": spec("states: { a: { initial: a, done: a } }")
    ]

    @Test("invalid-nesting is left to the check", arguments: nestingCases.keys.sorted())
    func nestingIsLeftToTheCheck(name: String) throws {
        let yaml = try #require(Self.nestingCases[name])
        let rules = SpecChecker().check(SourceFile(path: "inline.yaml", text: yaml)).diagnostics.map(\.rule)
        #expect(rules.contains(.invalidNesting), "\(rules)")
        let outcome = Self.check(yaml: yaml)
        #expect(outcome.findings.isEmpty, "the decoder says: \(outcome.findings.map(\.message))")
        #expect(outcome.errors.isEmpty, "the schema says:\n\(Self.describe(outcome.errors))")
    }

    /// What `invalid-history` finds is a check's too, for the same reason: each of these specs
    /// is decoded with that finding and no decoding finding, and the schema accepts it.
    static let historyCases: [String: String] = [
        "a history state at the top level": spec("states: { a: , h: { kind: history } }"),
        "a history state with transitions": spec(
            "states: { a: { states: { b: , h: { kind: history, on: { go: b } } } } }"),
        "a default not inside the compound state": spec(
            "states: { a: { states: { b: , h: { kind: history, default: a } } } }"),
        "deep and default on a state that is no history": spec(
            "states: { a: { states: { b: { deep: true, default: b } } } }"),
        "a history state as an initial": spec("states: { a: { initial: h, states: { b: , h: { kind: history } } } }"),
        "only history states inside": spec("states: { a: { states: { h: { kind: history } } } }")
    ]

    @Test("invalid-history is left to the check", arguments: historyCases.keys.sorted())
    func historyIsLeftToTheCheck(name: String) throws {
        let yaml = try #require(Self.historyCases[name])
        let rules = SpecChecker().check(SourceFile(path: "inline.yaml", text: yaml)).diagnostics.map(\.rule)
        #expect(rules.contains(.invalidHistory), "\(rules)")
        let outcome = Self.check(yaml: yaml)
        #expect(outcome.findings.isEmpty, "the decoder says: \(outcome.findings.map(\.message))")
        #expect(outcome.errors.isEmpty, "the schema says:\n\(Self.describe(outcome.errors))")
    }

    /// What `invalid-parallel` finds is a check's too: each of these specs is decoded with that
    /// finding and no decoding finding, and the schema accepts it.
    static let parallelCases: [String: String] = [
        "one region": spec("states: { a: { parallel: { r: { kind: input } } } }"),
        "no regions": spec("states: { a: { parallel: {} } }"),
        "states, initial and kind beside regions": spec(
            "states: { a: { kind: choice, initial: r, states: { x: }, parallel: { r: , s: } } }"),
        "a region that is a history, choice or terminal state": spec(
            "states: { a: { parallel: { h: { kind: history }, c: { kind: choice, always: a }, t: { kind: terminal } } } }"
        ),
        "a transition into another region": spec(
            "states: { a: { parallel: { r: { kind: input, on: { go: s } }, s: { kind: input } } } }"),
        "a deep history state around a parallel state": spec(
            "states: { a: { states: { h: { kind: history, deep: true }, p: { parallel: { r: , s: } } } } }")
    ]

    @Test("invalid-parallel is left to the check", arguments: parallelCases.keys.sorted())
    func parallelIsLeftToTheCheck(name: String) throws {
        let yaml = try #require(Self.parallelCases[name])
        let rules = SpecChecker().check(SourceFile(path: "inline.yaml", text: yaml)).diagnostics.map(\.rule)
        #expect(rules.contains(.invalidParallel), "\(rules)")
        let outcome = Self.check(yaml: yaml)
        #expect(outcome.findings.isEmpty, "the decoder says: \(outcome.findings.map(\.message))")
        #expect(outcome.errors.isEmpty, "the schema says:\n\(Self.describe(outcome.errors))")
    }

    /// Where the schema and the decoder knowingly disagree: what each does, and why.
    static let knownGaps: [String: (decoderRejects: Bool, schemaRejects: Bool, yaml: String)] = [
        // `max: 3.0` is a float to the decoder, but JSON Schema counts 3.0 as an integer.
        "a float retry count": (
            true, false, spec("states: { a: { on: { go: { to: a, retry: { max: 3.0, then: a } } } } }")
        ),
        // The pattern checks a positive number and a unit, not that it fits in 64 bits of nanoseconds.
        "a duration too long to represent": (
            true, false, spec("states: { a: { timeout: { after: 9999999999999h, to: a } } }")
        ),
        // A key YAML reads as a number is the string key "42" in JSON.
        "a number as a state name": (true, false, spec("states: { 42: , a: }")),
        // Whether a `migrate` key is a stored value depends on `rawValue` and on the states.
        "a migrate key a state stores": (
            true, false, spec("states: { a: }\npersist: { rawValue: string, migrate: { a: a } }")
        ),
        "a name as a migrate key of int values": (
            true, false, spec("states: { a: }\npersist: { rawValue: int, migrate: { old: a } }")
        ),
        // A history state's `states` is invalid-history and the decoder reads no further; the
        // schema still holds what is inside to the language.
        "an unknown key inside a history state's states": (
            false, true, spec("states: { a: { states: { b: , h: { kind: history, states: { c: { knd: 1 } } } } } }")
        ),
        // A quoted "<<" is a name to the decoder, but JSON cannot tell it from the merge key.
        "a quoted merge key as a state name": (false, true, spec("states: { '<<': , a: }"))
    ]

    static func machines(_ body: String, initial: String? = "a") -> String {
        let lines =
            (initial.map { ["initial: \($0)"] } ?? [])
            + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return "machines:\n  M:\n" + lines.map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    static func spec(_ body: String) -> String {
        "flowspec: 1\n" + machines(body)
    }

    @Test("the schema agrees with the decoder", arguments: agreementCases.keys.sorted())
    func agreement(name: String) throws {
        let (valid, yaml) = try #require(Self.agreementCases[name])
        let outcome = Self.check(yaml: yaml)
        #expect(outcome.isReadable, "the case's YAML does not read")
        #expect(outcome.findings.isEmpty == valid, "the decoder says: \(outcome.findings.map(\.message))")
        #expect(outcome.errors.isEmpty == valid, "the schema says:\n\(Self.describe(outcome.errors))")
        for finding in outcome.findings {
            let matched = outcome.isMatched(finding)
            #expect(matched, "no schema error at \(finding.location) (\(finding.message))")
        }
    }

    @Test("the known gaps between the schema and the decoder are as documented", arguments: knownGaps.keys.sorted())
    func knownGap(name: String) throws {
        let (decoderRejects, schemaRejects, yaml) = try #require(Self.knownGaps[name])
        let outcome = Self.check(yaml: yaml)
        #expect(outcome.isReadable)
        #expect(!outcome.findings.isEmpty == decoderRejects, "the decoder says: \(outcome.findings.map(\.message))")
        #expect(!outcome.errors.isEmpty == schemaRejects, "the schema says:\n\(Self.describe(outcome.errors))")
    }
}
