import Foundation
import Testing

/// Every input limit can be overridden on the command line, and exceeding it is a located
/// `limit-exceeded` error (exit 1).
@Suite("Limit options (process)")
struct LimitOptionsTests {
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: a
            summary: "0123456789"
            on: { reset: a }
            states:
              a: { kind: input, on: { go: b } }
              b: { kind: terminal }
        """

    @Test(arguments: [
        (
            ["--max-states", "1"],
            "spec.yaml:7:5: error: machine 'M' has 2 states, over the limit of 1 (raise it with --max-states) [limit-exceeded]"
        ),
        (
            ["--max-transitions", "1"],
            "spec.yaml:3:3: error: machine 'M' has 2 transitions, over the limit of 1 (raise it with --max-transitions) [limit-exceeded]"
        ),
        (["--max-depth", "2"], "spec.yaml:4:5: error: collections nest more than 2 levels deep here [limit-exceeded]"),
        (
            ["--max-scalar-length", "9"],
            "spec.yaml:5:14: error: a scalar of 10 bytes is over the limit of 9 bytes [limit-exceeded]"
        )
    ])
    func exceedingALimitIsALocatedError(arguments: [String], expected: String) throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        let output = try CLI.run(["check"] + arguments + ["spec.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.split(separator: "\n").first.map(String.init) == expected)
    }

    @Test func theDefaultsAcceptTheSpecAndRaisedLimitsToo() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        #expect(try CLI.run(["check", "spec.yaml"], in: directory).status == 0)
        #expect(
            try CLI.run(["check", "--max-states", "2", "--max-transitions", "2", "spec.yaml"], in: directory).status
                == 0)
    }

    @Test func aFileOverTheSizeLimitCannotBeReadAndAnAliasBombIsBounded() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "spec.yaml": Self.spec, "bomb.yaml": "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
        ])
        let big = try CLI.run(["check", "--max-file-size", "10", "spec.yaml"], in: directory)
        #expect(big.status == 2)
        #expect(big.stderr.contains("over the limit of 10 bytes"))
        let bomb = try CLI.run(["check", "--max-alias-expansion", "5", "bomb.yaml"], in: directory)
        #expect(bomb.status == 1)
        #expect(bomb.stdout.hasPrefix("bomb.yaml:2:9: error: aliases expand to more than 5 nodes"))
    }

    @Test func gen_simulate_andGraphTakeTheLimitsToo() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        for command in [
            ["gen", "spec.yaml", "--output", "Out.swift"], ["simulate", "spec.yaml"],
            ["graph", "spec.yaml", "--format", "dot"]
        ] {
            let output = try CLI.run(command + ["--max-states", "1"], in: directory)
            #expect(output.status == 1, "\(command)")
            #expect(output.stderr.contains("over the limit of 1 (raise it with --max-states)"), "\(command)")
        }
        #expect(try CLI.run(["check", "--max-states", "0", "spec.yaml"], in: directory).status == 2)
    }

    @Test func theTransitionLimitCannotBeRaisedPastWhatAnEdgeNumbers() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        #expect(try CLI.run(["check", "--max-transitions", "536870911", "spec.yaml"], in: directory).status == 0)
        let over = try CLI.run(["check", "--max-transitions", "536870912", "spec.yaml"], in: directory)
        #expect(over.status == 2)
        #expect(over.stderr.hasPrefix("flowspec: error: --max-transitions can be at most 536870911; got 536870912\n"))
    }
}
