/// The machines of one import: the names the spec's machines take, and the machines the
/// imported one invokes by reference (``MachineImporter/Links``), found among the other inputs
/// or read where a document points, each imported once whichever states invoke it. A class:
/// the readers of invoked machines share it with the reader of the machine that invokes them.
final class InvokedMachines {
    /// What an invocation by reference names.
    enum Found {
        /// An SCXML document not imported yet: its path and `<scxml>` element.
        case document(path: String, root: XMLElement)
        /// An XState config not imported yet: its path and root object.
        case config(path: String, root: JSONValue)
        /// A machine imported already, by its name in the spec.
        case imported(String)
        /// Why the machine named cannot be imported.
        case refused(String)
    }

    /// How deep invocations by reference may go: deeper, they are refused.
    static let maxChain = 32
    /// How many machines one import reads by reference: more are refused. Without it, a
    /// document that invokes itself twice under paths that keep growing (through links on
    /// disk, `loop/self.scxml` and `again/self.scxml`) would be read 2^32 times.
    static let maxRead = 256

    private let links: MachineImporter.Links?
    private let limits: ReadLimits
    /// The other inputs, read up front: a config by its `id` and file name, a document by its
    /// file name.
    private var configs: [(path: String, id: String?, root: JSONValue)] = []
    private var documents: [(path: String, root: XMLElement)] = []
    /// The paths of the inputs being read, the outermost first.
    private var reading: [String]
    /// The spec name of each input imported, by its path.
    private var importedNames: [String: String] = [:]
    /// The names the spec's machines have taken.
    private var taken: Set<String>

    /// `links` nil: nothing is invoked by reference (only machines written inside). `config` is
    /// the first input's root when it is an XState config: it is found by its `id` as the others
    /// are, so that a machine it invokes which invokes it back is refused, as an SCXML document
    /// read again by its path is, rather than taken for some other actor.
    init(
        machine: String, links: MachineImporter.Links?, limits: ReadLimits, config: JSONValue? = nil
    ) throws(MachineImporter.Failure) {
        self.links = links
        self.limits = limits
        reading = [links?.path ?? ""]
        taken = [machine]
        if let links, let config { configs.append((links.path, config["id"]?.string, config)) }
        for input in links?.others ?? [] {
            do throws(MachineImporter.Failure) {
                switch MachineImporter.format(of: input.bytes) {
                case .scxml: documents.append((input.path, try SCXMLImporter.root(of: input.bytes, limits: limits)))
                case .xstate:
                    let root = try XStateImporter.root(of: input.bytes, limits: limits)
                    configs.append((input.path, root["id"]?.string, root))
                case nil:
                    throw MachineImporter.Failure(
                        message:
                            "the input is neither SCXML nor an XState config (JSON, or JavaScript calling `createMachine(…)`)",
                        location: .start)
                }
            } catch {
                throw MachineImporter.Failure(message: error.message, location: error.location, file: input.path)
            }
        }
    }

    /// A machine name not taken yet, `preferred` or that with `_` added, now taken.
    func claim(_ preferred: String) -> String {
        var name = preferred
        while taken.contains(name) { name += "_" }
        taken.insert(name)
        return name
    }

    /// The path of the input being read (empty for the first without links).
    var currentPath: String { reading.last ?? "" }

    /// The document an SCXML `<invoke src>` names: among the other inputs by its file name,
    /// else read relative to the document that invokes it. `nil` without links.
    func document(_ source: String) -> Found? {
        guard let links else { return nil }
        let relative = source.hasPrefix("file:") ? String(source.dropFirst("file:".count)) : source
        let fileName = Self.fileName(relative)
        if let other = documents.first(where: { Self.fileName($0.path) == fileName }) {
            return found(path: other.path) { .document(path: other.path, root: other.root) }
        }
        switch links.read(relative, currentPath) {
        case .failure(let failure): return .refused("it cannot be read: \(failure.message)")
        case .success(let input):
            return found(path: input.path) {
                do throws(MachineImporter.Failure) {
                    return .document(
                        path: input.path, root: try SCXMLImporter.root(of: input.bytes, limits: limits))
                } catch {
                    return .refused("\(input.path):\(error.location): \(error.message)")
                }
            }
        }
    }

    /// The config of the machine an XState `invoke` names by `src`: the other input whose
    /// `id` is `source`, else whose file name without extension is. `nil` when none is.
    func config(_ source: String) -> Found? {
        let other =
            configs.first { $0.id == source } ?? configs.first { Self.stem($0.path) == source && $0.id == nil }
        guard let other else { return nil }
        return found(path: other.path) { .config(path: other.path, root: other.root) }
    }

    /// `read` for an input not imported yet, unless it is being read (it would invoke itself)
    /// or invocations go too deep.
    private func found(path: String, _ read: () -> Found) -> Found {
        if let name = importedNames[path] { return .imported(name) }
        if reading.contains(path) {
            return .refused("'\(path)' is being imported already: a sub-flow cannot run a flow that runs it")
        }
        guard reading.count < Self.maxChain else {
            return .refused("invocations by reference go more than \(Self.maxChain) deep")
        }
        guard importedNames.count + reading.count <= Self.maxRead else {
            return .refused("the import has read \(Self.maxRead) machines by reference, as many as it reads")
        }
        return read()
    }

    /// Reads the machine at `path` with `body`, which returns its name in the spec.
    func reading(_ path: String, _ body: () -> String) -> String {
        reading.append(path)
        let name = body()
        reading.removeLast()
        importedNames[path] = name
        return name
    }

    /// The other inputs no state invoked, each noted at its start.
    func notesOnUnused(machine: String) -> [MachineImporter.Note] {
        let paths = documents.map(\.path) + configs.map(\.path)
        return paths.filter { importedNames[$0] == nil && $0 != reading.first }.map {
            MachineImporter.Note(
                location: .start,
                message:
                    "not imported: no state of '\(machine)' invokes this machine (an SCXML <invoke src> names a document by its file name, an XState invoke's `src` a config by its `id`)",
                file: $0)
        }
    }

    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
    }

    static func stem(_ path: String) -> String {
        let name = fileName(path)
        return String(name.split(separator: ".", maxSplits: 1).first ?? Substring(name))
    }
}
