import FlowSpecCore
import Foundation

/// Renames a machine wherever it is named, across files: its key in the file that declares
/// it, and each `run:` of it in that file, in the file the rename is asked in and in every
/// open file that imports the declaring one. A file not open in the editor is read, and
/// edited, as it is on disk.
struct MachineRename {
    /// A spec file as the rename reads it.
    struct File {
        let uri: String
        /// Its path, links resolved: the same file however an import names it.
        let path: String
        let lines: [Substring]
        let result: SpecChecker.Checked

        init(uri: String, lines: [Substring], result: SpecChecker.Checked) {
            self.uri = uri
            self.path = Self.canonical(URL(string: uri)?.path ?? uri)
            self.lines = lines
            self.result = result
        }

        /// The file at `path` as it is on disk, checked; `nil` when it cannot be read (or is
        /// not a regular file, or is over the size limit: `SpecFileReader` refuses those).
        init?(path: String) {
            let checker = SpecChecker()
            guard let source = try? SpecFileReader.read(path, maxSize: checker.limits.maxFileSize) else { return nil }
            self.init(
                uri: URL(fileURLWithPath: path).absoluteString,
                lines: Document.lines(String(decoding: source.bytes, as: UTF8.self)), result: checker.check(source))
        }

        /// The files it imports, as paths with links resolved.
        var imports: [String] {
            result.spec.imports.map { entry in
                let written = entry.value
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
                let url =
                    written.hasPrefix("/") ? URL(fileURLWithPath: written) : directory.appendingPathComponent(written)
                return Self.canonical(url.path)
            }
        }

        /// Where it writes `run: machine`.
        func runs(of machine: String) -> [SourceLocation] {
            result.spec.machines.flatMap { written in
                written.nesting.details.keys.sorted().compactMap { written.nesting.details[$0]?.run }
                    .filter { $0.value == machine }.map(\.location)
            }
        }

        static func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        }
    }

    /// The file the rename is asked in.
    let current: File
    /// The other open specs.
    let open: [File]

    /// The machine named at `position` of `navigation`'s file: its key, or a `run:` value.
    static func machine(at position: (line: Int, character: Int), in navigation: Navigation) -> String? {
        guard let word = navigation.word(at: position) else { return nil }
        let machines = navigation.result.spec.machines
        if machines.contains(where: { $0.name.value == word && $0.name.location.line - 1 == position.line }) {
            return word
        }
        guard let machine = navigation.machine(at: position.line) else { return nil }
        return navigation.runValue(at: position, in: machine)?.value
    }

    /// The edits that rename `machine` to `newName`, or why not.
    func rename(_ machine: String, to newName: String) -> Result<[String: Any], Navigation.RenameRefused> {
        guard let declaring = declaringFile(of: machine) else {
            return .failure(.init(message: "no file that this one imports declares machine '\(machine)'"))
        }
        if case .failure(let problem) = SwiftName.make(newName, scope: .machine) {
            return .failure(.init(message: "'\(newName)' cannot be a machine name: \(problem)"))
        }
        // The declaring file and the files that may run its machines: each names it the same.
        var files = [declaring]
        for file in [current] + open where file.path != declaring.path && file.imports.contains(declaring.path) {
            if !files.contains(where: { $0.path == file.path }) { files.append(file) }
        }
        if newName != machine, let taken = files.first(where: { names($0).contains(newName) }) {
            let place = URL(fileURLWithPath: taken.path).lastPathComponent
            return .failure(.init(message: "'\(newName)' is already the name of a machine '\(place)' has or imports"))
        }
        var changes: [String: Any] = [:]
        for file in files {
            var places = file.runs(of: machine)
            if file.path == declaring.path,
                let key = file.result.spec.machines.first(where: { $0.name.value == machine })?.name.location
            {
                places.insert(key, at: 0)
            }
            changes[file.uri] = places.map { edit($0, machine, newName, file.lines) }
        }
        return .success(["changes": changes])
    }

    /// The file that declares `machine`: this one, or one it imports (open, or on disk).
    private func declaringFile(of machine: String) -> File? {
        if current.result.spec.machines.contains(where: { $0.name.value == machine }) { return current }
        guard let imported = current.result.imports.first(where: { $0.machines.contains { $0.name.value == machine } })
        else { return nil }
        let path = File.canonical(imported.path)
        return open.first { $0.path == path } ?? File(path: path)
    }

    /// The machine names a file has, its own and those of the files it imports.
    private func names(_ file: File) -> Set<String> {
        Set(file.result.spec.machines.map(\.name.value) + file.result.imports.flatMap { $0.machines.map(\.name.value) })
    }

    private func edit(_ place: SourceLocation, _ name: String, _ newName: String, _ lines: [Substring]) -> [String: Any]
    {
        let start = Document.range(place, lines)["start"] as? [String: Any] ?? [:]
        let end: [String: Any] = [
            "line": start["line"] ?? 0, "character": (start["character"] as? Int ?? 0) + name.utf16.count
        ]
        return ["range": ["start": start, "end": end] as [String: Any], "newText": newName]
    }
}
