import FlowSpecTestSupport
import Foundation
import Testing

/// `flowspec gen` writes only inside the output it is given, whatever the spec's machines are
/// called; reading a spec (`check` or `gen`) never opens any other file, whatever the spec
/// mentions (`include:`, `$ref`, `!include`, `%TAG ! file:///etc/`, paths as names).
///
/// The suite's time limit is a watchdog, not a measure (each process has its own): a case's
/// time runs from when it is started, and in a full run on two cores the compile tests hold
/// the test threads for minutes.
@Suite("Output safety (process)", .timeLimit(.minutes(10)))
struct OutputSafetyTests {
    // MARK: gen writes only inside the requested output

    /// A spec with one machine named `name` (written as a double-quoted YAML scalar, so it may
    /// hold escapes such as `\0`), plus an ordinary machine `Plain` before it.
    static func spec(machineNamed name: String) -> String {
        """
        flowspec: 1
        machines:
          Plain:
            initial: a
            defaults: { kind: input }
            states:
              a: { on: { go: b } }
              b: { kind: terminal }
          "\(name)":
            initial: a
            defaults: { kind: input }
            states:
              a: { on: { go: b } }
              b: { kind: terminal }

        """
    }

    /// Machine names that try to become paths. All but the last three are not Swift
    /// identifiers (`invalid-identifier`, so `gen` refuses with exit 1 and writes nothing):
    /// `evil.swift` and `.hidden` become the types `evilSwift` and `hidden`, and the 300-letter
    /// name is an identifier too long for a file name (refused by `gen` into a directory, see
    /// `veryLongMachineNameIsALocatedRefusal`).
    static let trickyNames: [String] = [
        "../evil", "../../evil", "/etc/x", "/tmp/evil", "a/b", "..", ".", "a\\0b", "evil\\0.swift",
        "a\u{2215}b", "..\u{2215}evil", "~", "$HOME", "a\\\\b", "C:\\\\evil",
        "evil.swift", ".hidden", longName
    ]

    static let longName = String(repeating: "L", count: 300)

    static let validTrickyNames: Set<String> = ["evil.swift", ".hidden", longName]

    /// The tree the tests run in: `root/work/parent/{spec.yaml, out/, sibling/}`, with the
    /// working directory `root/work/parent`, so that `..` and `../..` land inside `root`.
    struct Sandbox {
        let root: URL
        let parent: URL
        let output: URL

        init(spec: String) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-safety-\(UUID().uuidString)")
            parent = root.appendingPathComponent("work/parent")
            output = parent.appendingPathComponent("out")
            let sibling = parent.appendingPathComponent("sibling")
            for directory in [output, sibling] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try spec.write(to: parent.appendingPathComponent("spec.yaml"), atomically: true, encoding: .utf8)
            try "keep\n".write(to: sibling.appendingPathComponent("keep.swift"), atomically: true, encoding: .utf8)
            try "keep\n".write(to: output.appendingPathComponent("Existing.txt"), atomically: true, encoding: .utf8)
            try "keep\n".write(to: root.appendingPathComponent("evil.swift"), atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    enum OutputForm: String, CaseIterable, CustomTestStringConvertible {
        case directory, singleFile
        var testDescription: String { rawValue }
    }

    @Test(
        "gen writes only .swift files directly inside the requested output",
        arguments: trickyNames, OutputForm.allCases)
    func genStaysInsideOutput(name: String, form: OutputForm) throws {
        let sandbox = try Sandbox(spec: Self.spec(machineNamed: name))
        defer { sandbox.remove() }
        let before = TreeSnapshot(of: sandbox.root)
        let target = form == .directory ? "out" : "out/File.swift"
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", target], in: sandbox.parent)
        #expect(result.exited(with: [0, 1, 2]), "\(name.debugDescription): \(result)")
        let after = TreeSnapshot(of: sandbox.root)
        let (added, changed, removed) = before.changes(to: after)
        #expect(removed.isEmpty, "\(name.debugDescription): gen removed \(removed)")
        let allowed: (String) -> Bool = { path in
            let inside = "work/parent/out/"
            guard path.hasPrefix(inside) else { return false }
            let file = String(path.dropFirst(inside.count))
            if form == .singleFile { return file == "File.swift" }
            return !file.contains("/") && file.hasSuffix(".swift") && !file.hasPrefix(".")
        }
        let outside = (added + changed).filter { !allowed($0) }
        #expect(outside.isEmpty, "\(name.debugDescription) (\(form)): gen changed \(outside); \(result)")
        if result.status == 1 || result.signalled {
            #expect(
                added.isEmpty && changed.isEmpty,
                "\(name.debugDescription): gen refused (\(result)) but wrote \(added + changed)")
        }
        if !Self.validTrickyNames.contains(name) {
            // Not a Swift identifier: refused before anything is written.
            #expect(result.exited(with: [1]), "\(name.debugDescription): \(result)")
            #expect(
                result.stderrText.contains("[invalid-identifier]"), "\(name.debugDescription): \(result.stderrText)")
        } else if name != Self.longName {
            #expect(result.exited(with: [0]), "\(name.debugDescription): \(result)")
        }
    }

    /// Expects a run to have left the tree as it was.
    static func expectUnchanged(_ before: TreeSnapshot, _ root: URL, _ what: String) {
        let (added, changed, removed) = before.changes(to: TreeSnapshot(of: root))
        #expect(
            added.isEmpty && changed.isEmpty && removed.isEmpty,
            "\(what): added \(added), changed \(changed), removed \(removed)")
    }

    /// Runs `gen spec.yaml --output new/out` in a sandbox whose `new` does not exist, then
    /// `--check`, and expects both to refuse with exit 1, a located finding, and no file or
    /// directory created or changed; returns standard error of the first.
    static func expectLocatedRefusal(spec: String, _ located: String) throws -> String {
        let sandbox = try Sandbox(spec: spec)
        defer { sandbox.remove() }
        let before = TreeSnapshot(of: sandbox.root)
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "new/out"], in: sandbox.parent)
        #expect(result.exited(with: [1]), "\(result)")
        #expect(result.stderrText.contains(located), "\(result.stderrText)")
        #expect(result.stderrText.hasSuffix("; nothing was generated\n"), "\(result.stderrText)")
        Self.expectUnchanged(before, sandbox.root, "gen --output new/out refused")
        #expect(
            !FileManager.default.fileExists(atPath: sandbox.parent.appendingPathComponent("new").path),
            "gen refused but created its output directory")
        // Into the existing `out` (holding `Existing.txt`): the same, and the old files stay.
        let intoExisting = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "out"], in: sandbox.parent)
        #expect(intoExisting.exited(with: [1]), "\(intoExisting)")
        Self.expectUnchanged(before, sandbox.root, "gen --output out refused")
        // The drift gate refuses the same way.
        let check = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "out", "--check"], in: sandbox.parent)
        #expect(check.exited(with: [1]), "\(check)")
        #expect(check.stderrText.contains(located), "\(check.stderrText)")
        return result.stderrText
    }

    /// A machine name of 300 letters is a valid identifier but too long for a file name (most
    /// file systems allow 255 bytes). `gen` into a directory refuses before writing anything,
    /// with a finding at the name; the single-file form works.
    @Test func veryLongMachineNameIsALocatedRefusal() throws {
        let name = Self.longName
        let clipped = String(repeating: "L", count: 40) + "…"
        let stderr = try Self.expectLocatedRefusal(
            spec: Self.spec(machineNamed: name),
            """
            spec.yaml:9:3: error: machine name '\(clipped)' is 300 bytes long; as a file name '\(clipped).swift' \
            (306 bytes) it exceeds 255 bytes; shorten it [limit-exceeded]
            """)
        #expect(
            stderr.hasSuffix(
                "flowspec: error: spec.yaml has 1 machine name that cannot be a file name in new/out; nothing was generated\n"
            ))

        let sandbox = try Sandbox(spec: Self.spec(machineNamed: name))
        defer { sandbox.remove() }
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "out/All.swift"], in: sandbox.parent)
        #expect(result.exited(with: [0]), "\(result)")
        let all = try String(contentsOf: sandbox.output.appendingPathComponent("All.swift"), encoding: .utf8)
        #expect(all.contains(name))
    }

    /// The longest name that fits: 249 letters + `.swift` is 255 bytes, and is written (its
    /// temporary sibling is cut short to fit); one more letter is refused.
    @Test func aFileNameOfExactly255BytesIsWritten() throws {
        let longest = String(repeating: "N", count: 249)
        let sandbox = try Sandbox(spec: Self.spec(machineNamed: longest))
        defer { sandbox.remove() }
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "new/out"], in: sandbox.parent)
        #expect(result.exited(with: [0]), "\(result)")
        let written = try FileManager.default.contentsOfDirectory(
            atPath: sandbox.parent.appendingPathComponent("new/out").path)
        #expect(written.sorted() == ["\(longest).swift", "Plain.swift"], "\(written)")

        _ = try Self.expectLocatedRefusal(
            spec: Self.spec(machineNamed: longest + "N"),
            "spec.yaml:9:3: error: machine name '")
    }

    /// `Auth` and `auth` are different Swift types; on a case-sensitive file system they would
    /// be two files, on a case-insensitive one (macOS by default) the second would silently
    /// replace the first. `gen` into a directory refuses on every system, with a finding at the
    /// second name and a note at the first; the single-file form works.
    @Test func namesThatDifferOnlyByCaseAreALocatedRefusal() throws {
        let spec = """
            flowspec: 1
            machines:
              Auth:
                initial: a
                defaults: { kind: input }
                states:
                  a: { on: { go: b } }
                  b: { kind: terminal }
              auth:
                initial: x
                defaults: { kind: input }
                states:
                  x: { on: { go: y } }
                  y: { kind: terminal }

            """
        let stderr = try Self.expectLocatedRefusal(
            spec: spec,
            """
            spec.yaml:9:3: error: machine names 'Auth' and 'auth' would be written to Auth.swift and auth.swift, \
            which are the same file on case-insensitive file systems (macOS); rename one [identifier-collision]
              auth:
              ^
            spec.yaml:3:3: note: 'Auth' is here
              Auth:
              ^

            """)
        #expect(
            stderr.hasSuffix(
                "flowspec: error: spec.yaml has 1 machine name that cannot be a file name in new/out; nothing was generated\n"
            ))

        let sandbox = try Sandbox(spec: spec)
        defer { sandbox.remove() }
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", "spec.yaml", "--output", "out/All.swift"], in: sandbox.parent)
        #expect(result.exited(with: [0]), "\(result)")
        let all = try String(contentsOf: sandbox.output.appendingPathComponent("All.swift"), encoding: .utf8)
        #expect(all.contains("enum Auth") && all.contains("enum auth"))
    }

    /// When a file cannot be written (here a directory stands where it goes), no other file is
    /// written either (every file goes to its temporary sibling before any is renamed), and no
    /// temporary file is left behind.
    @Test func aFailedWriteWritesNothing() throws {
        let sandbox = try Sandbox(spec: Self.spec(machineNamed: "Zed"))
        defer { sandbox.remove() }
        // `Plain` comes first: its file would be written before `Zed`'s fails.
        try FileManager.default.createDirectory(
            at: sandbox.output.appendingPathComponent("Zed.swift"),
            withIntermediateDirectories: true)
        let before = TreeSnapshot(of: sandbox.root)
        let result = try ProcessOutcome.run(CLI.executable, ["gen", "spec.yaml", "--output", "out"], in: sandbox.parent)
        #expect(result.exited(with: [2]), "\(result)")
        #expect(
            result.stderrText.contains("cannot write 'out/Zed.swift': it is a directory; nothing was generated"),
            "\(result.stderrText)")
        Self.expectUnchanged(before, sandbox.root, "a failed gen")
    }

    /// A path too long for the system (a name over 255 bytes in `--output`) is refused before
    /// any directory is created.
    @Test func anOutputPathTooLongIsRefusedBeforeCreatingAnything() throws {
        let sandbox = try Sandbox(spec: Self.spec(machineNamed: "Zed"))
        defer { sandbox.remove() }
        let before = TreeSnapshot(of: sandbox.root)
        let long = String(repeating: "d", count: 300)
        for output in ["new/\(long)/out", "new/" + String(repeating: "d/", count: 2_100) + "out"] {
            let result = try ProcessOutcome.run(
                CLI.executable, ["gen", "spec.yaml", "--output", output], in: sandbox.parent)
            #expect(result.exited(with: [2]), "\(result)")
            #expect(result.stderrText.contains("nothing was generated"), "\(result.stderrText.prefix(300))")
            Self.expectUnchanged(before, sandbox.root, "gen --output \(output.prefix(40))… refused")
        }
    }

    // MARK: reading a spec never reads other files

    /// Specs that mention other files in every way YAML or a user might expect to work.
    static let referencingSpecs: [(name: String, text: String)] = [
        (
            "include-key",
            """
            flowspec: 1
            include: other.yaml
            machines:
              M: { initial: a, defaults: { kind: input }, states: { a: { on: { go: b } }, b: { kind: terminal } } }

            """
        ),
        (
            "ref-key",
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                states:
                  a: { $ref: ../secret, on: { go: b } }
                  b: { $ref: "file:///etc/passwd", kind: terminal }

            """
        ),
        (
            "include-tag",
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                summary: !include other.yaml
                states:
                  a: !include other.yaml
                  b: { kind: terminal, summary: !include ../secret }

            """
        ),
        (
            "path-anchor",
            """
            flowspec: 1
            machines:
              M:
                initial: &/etc/passwd a
                defaults: { kind: input }
                states:
                  */etc/passwd : { on: { go: &../secret b } }
                  *../secret : { kind: terminal }

            """
        ),
        (
            "file-like-anchors",
            """
            flowspec: 1
            machines:
              M:
                initial: &other-yaml a
                defaults: { kind: input }
                states:
                  *other-yaml : { on: { go: &etc_passwd b } }
                  *etc_passwd : { kind: terminal }

            """
        ),
        (
            "path-state-names",
            """
            flowspec: 1
            machines:
              M:
                initial: /etc/passwd
                defaults: { kind: input }
                states:
                  /etc/passwd: { on: { go: ../secret } }
                  ../secret: { on: { go: other.yaml } }
                  other.yaml: { kind: terminal }

            """
        ),
        (
            "tag-directive-file",
            """
            %TAG ! file:///etc/
            %TAG !s! file://../
            ---
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                summary: !passwd x
                states:
                  a: !s!secret { on: { go: b } }
                  b: { kind: terminal, summary: !shadow y }

            """
        ),
        (
            "valid-with-path-text",
            """
            flowspec: 1
            machines:
              M:
                summary: !include "see other.yaml, ../secret and /etc/passwd"
                initial: a
                defaults: { kind: input }
                states:
                  a: { summary: ../secret, on: { go: b } }
                  b: { kind: terminal, summary: other.yaml }

            """
        )
    ]

    static var referencingSpecNames: [String] { referencingSpecs.map(\.name) }

    /// The system calls that name a file, traced with `strace -f`.
    static let tracedCalls = "trace=open,openat,openat2,creat,stat,newfstatat,statx,readlink,execve"

    enum Strace {
        /// One traced call that names a path.
        struct Access: CustomStringConvertible {
            var call: String
            var path: String
            var line: String
            var description: String { line }
        }

        /// Runs `flowspec` under strace in `directory` and returns every path-naming call.
        static func trace(_ arguments: [String], in directory: URL) throws -> (ProcessOutcome.Result, [Access]) {
            let log = directory.appendingPathComponent("strace.log")
            let strace = try StraceTool.executable()
            let result = try ProcessOutcome.run(
                strace, ["-f", "-s", "4096", "-e", tracedCalls, "-o", log.path, CLI.executable.path] + arguments,
                in: directory)
            let text = try String(contentsOf: log, encoding: .utf8)
            try FileManager.default.removeItem(at: log)
            var accesses: [Access] = []
            let call = try Regex(
                #"^(?:\d+\s+)?(open|openat|openat2|creat|stat|newfstatat|statx|readlink|execve)\((?:AT_FDCWD, |\d+, )?"((?:[^"\\]|\\.)*)""#
            )
            for line in text.split(separator: "\n") {
                guard let match = try call.prefixMatch(in: String(line)),
                    let name = match.output[1].substring, let path = match.output[2].substring,
                    !path.isEmpty
                else { continue }
                accesses.append(Access(call: String(name), path: String(path), line: String(line)))
            }
            return (result, accesses)
        }

        /// The toolchain root (`…/usr`, above the Swift runtime's `lib/swift/linux` and the crash
        /// backtracer's `libexec/swift/linux`), from where the traced run loaded `libswiftCore.so`.
        static func toolchainRoot(in accesses: [Access]) -> String? {
            for access in accesses where access.path.hasSuffix("/libswiftCore.so") && !access.line.contains("= -1 ") {
                guard let range = access.path.range(of: "/lib/swift/") else { continue }
                return String(access.path[..<range.lowerBound])
            }
            return nil
        }

        /// Folders the dynamic loader searches below each RUNPATH entry.
        static let loaderSubfolders: Set<String> = [
            "glibc-hwcaps", "tls", "x86_64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "haswell", "avx512_1",
            "aarch64", "i686", "i386"
        ]

        /// Whether an access is the system's or the toolchain's business (libraries, locale,
        /// `/proc`, `/sys`, `/dev`, the Swift runtime), or the executable being loaded.
        static func isSystem(_ path: String, toolchainRoot: String?) -> Bool {
            let systemPrefixes = ["/usr/", "/lib/", "/lib64/", "/lib32/", "/etc/ld.so", "/proc/", "/sys/", "/dev/"]
            if systemPrefixes.contains(where: path.hasPrefix)
                || ["/usr", "/lib", "/lib64", "/proc", "/sys", "/dev"].contains(path)
            {
                return true
            }
            if let root = toolchainRoot, !root.isEmpty, path == root || path.hasPrefix(root + "/") { return true }
            let executable = CLI.executable.resolvingSymlinksInPath()
            for binary in [CLI.executable, executable] {
                if path == binary.path { return true }
                // The loader looks for shared libraries beside the executable (its RUNPATH).
                let folder = binary.deletingLastPathComponent().path
                if path == folder { return true }
                if path.hasPrefix(folder + "/") {
                    let rest = path.dropFirst(folder.count + 1).split(separator: "/")
                    let isLibrary = rest.last.map { $0.hasPrefix("lib") && $0.contains(".so") } ?? false
                    let folders = isLibrary ? rest.dropLast() : rest[...]
                    if folders.allSatisfy({ loaderSubfolders.contains(String($0)) }) { return true }
                }
            }
            return false
        }
    }

    /// The paths a run touched that are neither the system's nor allowed by `allowed`.
    static func unexpected(_ accesses: [Strace.Access], allowed: (String) -> Bool) -> [Strace.Access] {
        let root = Strace.toolchainRoot(in: accesses)
        return accesses.filter { !Strace.isSystem($0.path, toolchainRoot: root) && !allowed($0.path) }
    }

    /// Records the unexpected accesses of a run, one trace line each.
    static func report(_ others: [Strace.Access], _ what: String) {
        guard !others.isEmpty else { return }
        Issue.record(
            "\(what) touched \(others.count) other paths:\n\(others.prefix(40).map(\.line).joined(separator: "\n"))")
    }

    static func referencingSandbox(_ spec: String) throws -> (root: URL, directory: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-reads-\(UUID().uuidString)")
        let directory = root.appendingPathComponent("specs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try spec.write(to: directory.appendingPathComponent("spec.yaml"), atomically: true, encoding: .utf8)
        // The files the specs mention exist, so that opening them would succeed.
        try "flowspec: 1\n".write(to: directory.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        try "secret\n".write(to: root.appendingPathComponent("secret"), atomically: true, encoding: .utf8)
        return (root, directory)
    }

    // Skipped, saying which, when strace is missing or cannot trace here (see `StraceTool`).
    @Test("check opens no file but the spec", StraceTool.required, arguments: referencingSpecNames)
    func checkReadsOnlyTheSpec(name: String) throws {
        let spec = try #require(Self.referencingSpecs.first { $0.name == name }).text
        let (root, directory) = try Self.referencingSandbox(spec)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, accesses) = try Strace.trace(["check", "spec.yaml"], in: directory)
        #expect(result.exited(with: [0, 1]), "\(name): \(result)")
        #expect(accesses.contains { $0.path == "spec.yaml" }, "\(name): the trace does not show the spec being read")
        let others = Self.unexpected(accesses) {
            $0 == "spec.yaml" || $0 == directory.appendingPathComponent("spec.yaml").path
        }
        Self.report(others, "\(name): check")
    }

    /// The detector itself: naming a second file on the command line must show up as an
    /// unexpected access, or the tests above would prove nothing.
    @Test(StraceTool.required)
    func traceSeesASecondFile() throws {
        let (root, directory) = try Self.referencingSandbox(Self.referencingSpecs[0].text)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, accesses) = try Strace.trace(["check", "spec.yaml", "../secret"], in: directory)
        #expect(result.exited(with: [1]), "\(result)")
        let others = Self.unexpected(accesses) { $0 == "spec.yaml" }
        // Asked of its path (the reader refuses what is not a regular file before opening it),
        // then opened.
        #expect(others.map(\.path) == ["../secret", "../secret"], "\(others.map(\.line))")
        #expect(others.last?.line.contains("open") == true, "\(others.map(\.line))")
    }

    // Skipped, saying which, when strace is missing or cannot trace here (see `StraceTool`).
    @Test(
        "gen opens only the spec, its output files and their temporary siblings", StraceTool.required,
        arguments: referencingSpecNames)
    func genReadsOnlyTheSpecAndOutput(name: String) throws {
        let spec = try #require(Self.referencingSpecs.first { $0.name == name }).text
        let (root, directory) = try Self.referencingSandbox(spec)
        defer { try? FileManager.default.removeItem(at: root) }
        for output in ["out", "out/All.swift"] {
            let (result, accesses) = try Strace.trace(["gen", "spec.yaml", "--output", output], in: directory)
            #expect(result.exited(with: [0, 1]), "\(name) → \(output): \(result)")
            let outputFile = try Regex(#"^out/(\.)?[A-Za-z_][A-Za-z0-9_]*\.swift(\.flowspec-\d+\.tmp)?$"#)
            let others = Self.unexpected(accesses) { path in
                if path == "spec.yaml" { return true }
                guard let match = path.wholeMatch(of: outputFile) else { return false }
                // A hidden name is only allowed as the temporary sibling `.Name.swift.flowspec-PID.tmp`.
                return (match.output[1].substring == nil) == (match.output[2].substring == nil)
            }
            Self.report(others, "\(name) → \(output): gen")
            if result.status == 0 {
                #expect(
                    accesses.contains { $0.path.hasPrefix("out/") && $0.path.hasSuffix(".tmp") },
                    "\(name) → \(output): the trace does not show the temporary file being written")
            }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("out"))
        }
    }
}
