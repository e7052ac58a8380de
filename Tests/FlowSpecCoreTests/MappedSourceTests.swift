import Foundation
import Testing

@testable import FlowSpecCore

/// Large spec files are mapped rather than copied into memory, and their pages given back as
/// they are read; everything read from them (findings, positions, excerpts) is exactly what
/// the same bytes in memory give.
@Suite("Mapped source files")
struct MappedSourceTests {
    /// A chain of states over the mapping threshold, whose last state nothing reaches (a
    /// finding near the end of the file, with its excerpt).
    static let bigSpec: String = {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        let count = 40_000
        for index in 0..<count - 2 {
            text += "      s\(index): { on: { go: s\(index + 1) } }\n"
        }
        text += "      s\(count - 2): { kind: terminal }\n      lost: { kind: terminal }\n"
        return text
    }()

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-mapped-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func render(_ file: SourceFile) -> String {
        DiagnosticRenderer.render(SpecChecker().check(file).diagnostics, files: [file], format: .text)
    }

    @Test func aLargeFileIsMappedAndChecksExactlyAsInMemory() throws {
        let bytes = Array(Self.bigSpec.utf8)
        #expect(bytes.count >= SpecFileReader.mappingThreshold)
        let path = try Self.write(bytes, name: "big.yaml")
        let file = try SpecFileReader.read(path, maxSize: .max)
        #expect(file.isMapped)
        #expect(file.encoding == .utf8)
        #expect(file.bytes == bytes)
        let mapped = Self.render(file)
        #expect(mapped == Self.render(SourceFile(path: path, bytes: bytes)))
        #expect(mapped.contains("error: state 'lost' can never be reached"))
        #expect(mapped.contains("\n      lost: { kind: terminal }\n      ^\n"))
    }

    @Test func releasedPagesStayReadable() throws {
        let bytes = Array(Self.bigSpec.utf8)
        let file = try SpecFileReader.read(try Self.write(bytes, name: "released.yaml"), maxSize: .max)
        #expect(file.isMapped)
        file.releaseMemory(ofFirst: 12_345)
        #expect(file.bytes == bytes)
        file.releaseMemory()
        #expect(file.bytes == bytes)
        #expect(LineIndex(file).line(40_006) == "      lost: { kind: terminal }")
    }

    @Test func smallFilesAndUTF16FilesAreReadIntoMemory() throws {
        let small = Array("flowspec: 1\nmachines: {}\n".utf8)
        let smallFile = try SpecFileReader.read(try Self.write(small, name: "small.yaml"), maxSize: .max)
        #expect(!smallFile.isMapped && smallFile.bytes == small)

        let utf16 = SourceEncodingTests.utf16(Self.bigSpec, bigEndian: false)
        let utf16File = try SpecFileReader.read(try Self.write(utf16, name: "utf16.yaml"), maxSize: .max)
        #expect(!utf16File.isMapped)
        #expect(utf16File.encoding == .utf16LittleEndian)
        #expect(utf16File.bytes == [0xEF, 0xBB, 0xBF] + Array(Self.bigSpec.utf8))
    }

    @Test func theSizeLimitStillApplies() throws {
        let path = try Self.write(Array(Self.bigSpec.utf8), name: "limit.yaml")
        #expect(throws: FileReadError.self) { try SpecFileReader.read(path, maxSize: 1 << 20) }
    }
}
