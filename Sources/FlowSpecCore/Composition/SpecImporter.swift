#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machines of the files a spec imports (`imports: [auth.flowspec.yaml]`), for its states
/// to run. Each file is read relative to the importing file's directory and checked on its own
/// (its own imports too); its machines, composed, are offered to the importer's `run`s.
///
/// What an imported file says about itself is its own: a file is checked where it is written,
/// so its findings are not reported again by the files that import it. To tell them apart, an
/// imported file's lines are numbered past the importer's, ``span`` further per level of
/// import: a finding on a copy of an imported machine lies past the importer's lines and is
/// left to that file, as a finding on a copy of one of its own machines is left to that
/// machine (``SpecChecker``). What only composing reveals is reported at the importer's `run`.
struct SpecImporter {
    /// One imported file.
    struct Imported: Sendable {
        /// The path it was read from.
        var path: String
        /// Its machines, composed; its lines numbered from `lineOffset` + 1.
        var machines: [MachineSpec]
        /// What was added to its lines.
        var lineOffset: Int
        /// Whether its machines can be run: `false` for a file with errors (reported at the
        /// import, so its runs are not reported again).
        var isUsable: Bool
        /// Whether the file was read: when not (reported at the import), which machines it
        /// holds is unknown, and a `run` of a machine no file has waits until it is fixed.
        var isRead = true

        /// A file that could not be read.
        static func unread(_ path: String) -> Imported {
            Imported(path: path, machines: [], lineOffset: 0, isUsable: false, isRead: false)
        }
    }

    /// How far apart the lines of files at successive levels of import are: more than a file
    /// within the size limit can have.
    static let span = 1 << 28
    /// How many levels of files may import one another (lines are 32 bits).
    static let maximumDepth = 7

    /// The files already checked in one top-level check, by path and depth: a file imported by
    /// several files at one level of import is read and checked once. (Its lines depend on the
    /// depth, so one imported at two depths is checked at each.) Used by one check at a time.
    final class Cache: @unchecked Sendable {
        var results: [String: SpecChecker.Checked] = [:]
    }

    let checker: SpecChecker
    let file: String
    let diagnostics: DiagnosticCollector
    /// The top-level check's files, shared with every file it imports.
    private let cache: Cache

    init(checker: SpecChecker, file: String, diagnostics: DiagnosticCollector) {
        self.checker = checker
        self.file = file
        self.diagnostics = diagnostics
        cache = checker.importCache ?? Cache()
    }

    /// Reads, checks and offers each file `spec` imports (its own machines, not those it
    /// imports in turn); reports (`invalid-import`) those that cannot be.
    func load(_ spec: Spec) -> [Imported] {
        guard !spec.imports.isEmpty else { return [] }
        let reporter = diagnostics.reporter(for: .invalidImport, machine: nil)
        var names = Set(spec.machines.map(\.name.value))
        return spec.imports.map { entry in
            guard var imported = check(entry, reporter: reporter) else { return .unread(entry.value) }
            imported.machines = imported.machines.filter { machine in
                guard names.insert(machine.name.value).inserted else {
                    ImportRule.reportNameTaken(entry, machine: machine.name.value, into: reporter)
                    return false
                }
                return true
            }
            return imported
        }
    }

    /// The file an entry names, checked (once per level of import in one top-level check), or
    /// `nil` (reported) when it cannot be read.
    private func check(_ entry: Located<String>, reporter: RuleReporter) -> Imported? {
        let chain = checker.importChain.isEmpty ? [Self.canonical(file) ?? file] : checker.importChain
        let path = Self.resolve(entry.value, from: file)
        let canonical = Self.canonical(path) ?? path
        if let start = chain.firstIndex(of: canonical) {
            let cycle = chain[start...].map(Self.fileName) + [Self.fileName(canonical)]
            ImportRule.reportCycle(entry, cycle: cycle, into: reporter)
            return nil
        }
        guard chain.count < Self.maximumDepth else {
            ImportRule.reportTooDeep(entry, into: reporter)
            return nil
        }
        var child = checker
        child.lineOffset = checker.lineOffset + Self.span
        child.importChain = chain + [canonical]
        child.importCache = cache
        let key = "\(child.lineOffset) \(canonical)"
        let result: SpecChecker.Checked
        if let checked = cache.results[key] {
            result = checked
        } else {
            do {
                result = child.check(try checker.readImport(path, checker.limits.maxFileSize))
            } catch {
                ImportRule.reportUnreadable(entry, reason: error.reason, into: reporter)
                return nil
            }
            cache.results[key] = result
        }
        let errors = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
            .filter { $0.severity == .error }
        if let first = errors.first {
            ImportRule.reportErrors(
                entry, count: errors.count, first: describe(first, in: entry.value, offset: child.lineOffset),
                into: reporter)
        }
        return Imported(
            path: path, machines: result.composed.machines, lineOffset: child.lineOffset, isUsable: errors.isEmpty)
    }

    /// Where a finding of an imported file is, as its own file would show it, and its rule:
    /// never its message (see ``ImportRule/reportErrors(_:count:first:into:)``).
    private func describe(_ finding: Diagnostic, in path: String, offset: Int) -> String {
        let line = finding.location.line > offset ? finding.location.line - offset : finding.location.line
        return "\(path):\(line):\(finding.location.column) [\(finding.rule.rawValue)]"
    }

    /// `path` as written in a file at `importer`: relative to that file's directory.
    static func resolve(_ path: String, from importer: String) -> String {
        guard !path.hasPrefix("/"), let slash = importer.lastIndex(of: "/") else { return path }
        return String(importer[...slash]) + path
    }

    /// The file's absolute path with every link resolved, if it exists: the same file however
    /// it is named.
    static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
