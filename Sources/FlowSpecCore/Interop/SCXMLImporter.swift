/// `flowspec import` of an SCXML document: the machine it describes as a flowspec spec, and a
/// located line for everything the language cannot hold, never dropped silently
/// (docs/interop.md gives the mapping both ways).
///
/// What `flowspec export` writes comes back exactly: its `flowspec:` attributes keep what SCXML
/// has no word for, and its patterns (a timeout's `<send>` and `<cancel>`, a retry's counter,
/// a state's override, a router into a history state) are read as what they stand for.
public enum SCXMLImporter {
    public typealias Note = MachineImporter.Note
    public typealias Failure = MachineImporter.Failure

    static let scxml = "{http://www.w3.org/2005/07/scxml}"
    static let flowspec = "{" + SCXMLExporter.namespace + "}"

    /// Imports the document in `bytes`; `machine` names the machine (else the document's
    /// `name`, else `fallbackName`). With `links`, the documents its `<invoke src>`s name are
    /// imported as its sub-flows.
    public static func importDocument(
        _ bytes: [UInt8], machine: String? = nil, fallbackName: String = "Imported",
        maxDepth: Int = YAMLLimits().maxDepth, links: MachineImporter.Links? = nil
    ) throws(Failure) -> MachineImporter.Imported {
        try importDocument(
            bytes, machine: machine, fallbackName: fallbackName, limits: ReadLimits(maxDepth: maxDepth), links: links)
    }

    /// ``importDocument(_:machine:fallbackName:maxDepth:links:)`` within `limits`.
    static func importDocument(
        _ bytes: [UInt8], machine: String?, fallbackName: String, limits: ReadLimits,
        links: MachineImporter.Links?
    ) throws(Failure) -> MachineImporter.Imported {
        let root = try Self.root(of: bytes, limits: limits)
        let name = machine ?? root.attribute("name").map(SCXMLMachineReader.safeName) ?? fallbackName
        let machines = try InvokedMachines(machine: name, links: links, limits: limits)
        var reader = SCXMLMachineReader(root: root, machines: machines)
        let imported = reader.read()
        imported.takeParallelTop(ifNamed: name)
        let notes = (reader.notes + machines.notesOnUnused(machine: name)).sortedForPrinting()
        return MachineImporter.Imported(
            spec: imported.text(name: name), machine: name, notImported: notes)
    }

    /// The `<scxml>` element of a document.
    static func root(of bytes: [UInt8], limits: ReadLimits) throws(Failure) -> XMLElement {
        let root: XMLElement
        do {
            root = try XMLReader.read(bytes, maxDepth: limits.maxDepth, maxScalarLength: limits.maxScalarLength)
        } catch {
            throw Failure(message: error.message, location: error.location)
        }
        guard root.name == scxml + "scxml" || root.name == "scxml" else {
            throw Failure(
                message: "the document's element is <\(local(root.name))>, not <scxml>; flowspec imports SCXML 1.0",
                location: root.location)
        }
        return root
    }

    static func local(_ name: String) -> String {
        guard let brace = name.lastIndex(of: "}") else { return name }
        return String(name[name.index(after: brace)...])
    }
}

/// Reads the states of an `<scxml>` element (see ``SCXMLImporter``).
struct SCXMLMachineReader {
    typealias Candidate = ImportedMachine.Candidate

    let root: XMLElement
    let namespace: String
    var notes: [SCXMLImporter.Note] = []
    var machine = ImportedMachine()
    /// SCXML id → spec name.
    var names: [String: String] = [:]
    /// The effects met so far.
    var effectSet: Set<String> = []
    /// Router id → the history state it goes on to.
    var routes: [String: String] = [:]
    /// Datamodel variable → condition name; and the retry counters.
    var variables: [String: String] = [:]
    var counters: Set<String> = []

    /// The spec's machines, which this one's invocations add to.
    let machines: InvokedMachines

    /// `root` is an `<scxml>` element, in SCXML's namespace or none.
    init(root: XMLElement, machines: InvokedMachines) {
        self.root = root
        self.namespace = root.name == "scxml" ? "" : SCXMLImporter.scxml
        self.machines = machines
    }

    private func tag(_ element: XMLElement) -> String? {
        guard namespace.isEmpty || element.name.hasPrefix(namespace) else { return nil }
        return String(element.name.dropFirst(namespace.count))
    }

    /// Whether an element is a state of the document (`<state>`, `<parallel>`, `<final>` or
    /// `<history>`).
    private func isStateElement(_ element: XMLElement) -> Bool {
        ["state", "parallel", "final", "history"].contains(tag(element) ?? "")
    }

    private func flowspec(_ element: XMLElement, _ attribute: String) -> String? {
        element.attribute(SCXMLImporter.flowspec + attribute)
    }

    private mutating func note(_ element: XMLElement, _ message: String) {
        notes.append(SCXMLImporter.Note(location: element.location, message: message))
    }

    /// A name the spec can hold, made from an id: letters, digits, `_`, `-`, `.` and spaces kept,
    /// anything else `_`, and never a leading digit.
    static func safeName(_ id: String) -> String {
        var name = String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || "_-. ".contains($0)) ? $0 : "_" })
        if name.first?.isNumber == true || name.isEmpty { name = "s" + name }
        return name
    }

    // MARK: - Reading

    mutating func read() -> ImportedMachine {
        noteUnknownAttributes(root)
        nameStates(root)
        collectEvents(root)
        readDatamodel()
        for declaration in (flowspec(root, "activities") ?? "").split(separator: ";") {
            let parts = declaration.split(separator: ",").map(String.init)
            if let name = parts.first { machine.activities.append((name, Array(parts.dropFirst()))) }
        }
        machine.events = flowspec(root, "events").map { $0.split(separator: ",").map(String.init) }
        machine.summary = flowspec(root, "summary")
        var top: [XMLElement] = []
        for child in root.elements {
            switch tag(child) {
            case "state" where flowspec(child, "role") == "machine":
                for transition in child.elements where tag(transition) == "transition" {
                    if let (events, candidates) = eventCandidates(transition, owner: nil) {
                        for event in events where !event.isEmpty {
                            machine.machineWide.append(event, candidates)
                        }
                    }
                }
                machine.initial = child.attribute("initial").flatMap(firstTarget)
                top += child.elements.filter { ["state", "parallel", "final", "history"].contains(tag($0) ?? "") }
                for other in child.elements
                where !["state", "parallel", "final", "history", "transition"].contains(tag(other) ?? "") {
                    unsupported(other, in: child)
                }
            case "state", "parallel", "final": top.append(child)
            case "datamodel": break
            default: unsupported(child, in: root)
            }
        }
        if machine.initial == nil { machine.initial = root.attribute("initial").flatMap(firstTarget) }
        for element in top { _ = state(element, parent: nil) }
        if machine.initial == nil { machine.initial = machine.states.first { $0.parent == nil }?.name }
        noteRegionRestarts()
        machine.compensateFallThrough { index, message in
            notes.append(SCXMLImporter.Note(location: machine.states[index].location, message: message))
        }
        return machine
    }

    private func firstTarget(_ ids: String) -> String? {
        ids.split(separator: " ").first.map { names[String($0)] ?? SCXMLMachineReader.safeName(String($0)) }
    }

    private mutating func collectEvents(_ element: XMLElement) {
        for child in element.elements {
            if tag(child) == "invoke" { continue }  // a machine of its own, with its own events
            if tag(child) == "send", child.attribute("delay") != nil, let event = child.attribute("event") {
                delayedEvents.insert(event)
            }
            if tag(child) == "transition" {
                let written = flowspec(child, "event") ?? child.attribute("event") ?? ""
                let descriptors =
                    flowspec(child, "event") != nil ? [written] : written.split(separator: " ").map(String.init)
                for descriptor in descriptors
                where !descriptor.contains("*") && Self.platformEvent(descriptor) == nil
                    && knownEventSet.insert(descriptor).inserted
                {
                    knownEvents.append(descriptor)
                }
            }
            collectEvents(child)
        }
    }

    /// Gives every state its spec name first, so that targets resolve wherever they point.
    private mutating func nameStates(_ element: XMLElement) {
        var taken: Set<String> = []
        func visit(_ element: XMLElement) {
            for child in element.elements {
                let kind = tag(child)
                guard ["state", "parallel", "final", "history"].contains(kind ?? "") else { continue }
                if let id = child.attribute("id") {
                    if flowspec(child, "role") == "route" {
                        if let target = child.elements.first(where: { tag($0) == "transition" })?.attribute("target") {
                            routes[id] = target
                        }
                        continue
                    }
                    if flowspec(child, "role") != "machine" {
                        var name = flowspec(child, "name") ?? SCXMLMachineReader.safeName(id)
                        while taken.contains(name) { name += "_" }
                        taken.insert(name)
                        names[id] = name
                    }
                }
                visit(child)
            }
        }
        visit(element)
    }

    private mutating func readDatamodel() {
        for model in root.elements where tag(model) == "datamodel" {
            for data in model.elements {
                guard tag(data) == "data", let id = data.attribute("id") else {
                    unsupported(data, in: model)
                    continue
                }
                if id.hasPrefix("flowspec_retry_") || id.hasPrefix("flowspec_epoch") {
                    counters.insert(id)
                } else if data.attribute("expr").map({ ["false", "False", "true", "True"].contains($0) }) ?? false {
                    let name = flowspec(data, "name") ?? SCXMLMachineReader.safeName(id)
                    variables[id] = name
                    _ = machine.declare(name)
                } else {
                    note(
                        data,
                        "not imported: the datamodel's '\(id)'; flowspec holds only boolean conditions, which the app supplies"
                    )
                }
            }
        }
    }

    /// The attributes SCXML 1.0 defines, by element, as the W3C schema lists them
    /// (`SCXMLVocabularyTests` holds it to the schema); an element not listed is noted whole.
    static let attributes: [String: Set<String>] = [
        "scxml": ["initial", "name", "version", "datamodel", "binding", "exmode"], "state": ["id", "initial"],
        "parallel": ["id"], "transition": ["event", "cond", "target", "type"], "initial": [], "final": ["id"],
        "onentry": [], "onexit": [], "history": ["id", "type"], "raise": ["event"], "if": ["cond"],
        "elseif": ["cond"], "else": [], "foreach": ["array", "item", "index"], "log": ["label", "expr"],
        "datamodel": [], "data": ["id", "src", "expr"], "assign": ["location", "expr", "type", "attr"], "donedata": [],
        "content": ["expr"], "param": ["name", "expr", "location"], "script": ["src"],
        "send": [
            "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay", "delayexpr",
            "namelist", "contentexpr"
        ],
        "cancel": ["sendid", "sendidexpr"],
        "invoke": ["type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward"],
        "finalize": []
    ]

    /// The attributes `flowspec export` writes in its own namespace.
    static let flowspecAttributes: Set<String> = [
        "name", "kind", "summary", "activities", "events", "role", "event", "stays", "done"
    ]

    /// Notes, where each is written, every attribute of the machine's SCXML elements that SCXML
    /// does not define there (or flowspec's export does not write): the spec holds nothing of
    /// it, and it must not be dropped silently. Elements of other namespaces are noted whole
    /// (``unsupported(_:in:)``), and a machine written inside an `<invoke>` by its own reader.
    private mutating func noteUnknownAttributes(_ element: XMLElement) {
        guard let kind = tag(element), let known = Self.attributes[kind] else { return }
        for (position, attribute) in element.attributes.enumerated() {
            let name = attribute.name
            if known.contains(name) || name.hasPrefix("{http://www.w3.org/XML/1998/namespace}") { continue }
            // Apache Commons SCXML's `final` on a state the flow can be in: read as its kind.
            if kind == "state", name == "final", !element.elements.contains(where: isStateElement),
                ["true", "false"].contains(attribute.value)
            {
                continue
            }
            let location =
                position < element.attributeLocations.count
                ? element.attributeLocations[position] : element.location
            let why: String
            if name.hasPrefix(SCXMLImporter.flowspec) {
                let local = SCXMLImporter.local(name)
                if Self.flowspecAttributes.contains(local) { continue }
                why = "which flowspec's export does not write"
            } else if name.hasPrefix("{") {
                why = "of another namespace (a tool's own data)"
            } else {
                why = "which SCXML does not define there; the flowspec language has no counterpart"
            }
            notes.append(
                SCXMLImporter.Note(
                    location: location,
                    message: "not imported: the attribute '\(SCXMLImporter.local(name))' of <\(kind)>, \(why)"))
        }
        if kind == "content" { return }
        for child in element.elements { noteUnknownAttributes(child) }
    }

    private mutating func unsupported(_ element: XMLElement, in parent: XMLElement) {
        let what = SCXMLImporter.local(element.name)
        let place = SCXMLImporter.local(parent.name)
        if tag(element) == nil {
            note(element, "not imported: <\(what)> in <\(place)>, of another namespace (a tool's own data)")
        } else {
            note(element, "not imported: <\(what)> in <\(place)>; the flowspec language has no counterpart")
        }
    }

    /// Reads a state element and those inside it; returns its index.
    private mutating func state(_ element: XMLElement, parent: Int?) -> Int {
        let id = element.attribute("id") ?? "state\(machine.states.count)"
        var state = ImportedMachine.State(name: names[id] ?? SCXMLMachineReader.safeName(id))
        if let written = element.attribute("id"), written != state.name, flowspec(element, "name") == nil {
            state.writtenAs = "SCXML id '\(written)'"
        }
        state.parent = parent
        state.location = element.location
        state.summary = flowspec(element, "summary")
        state.activities = flowspec(element, "activities")?.split(separator: ",").map(String.init) ?? []
        let index = machine.states.count
        machine.states.append(state)
        let kind = tag(element)
        if kind == "history" {
            machine.states[index].kind = .history
            machine.states[index].deep = element.attribute("type") == "deep"
            if let transition = element.elements.first(where: { tag($0) == "transition" }),
                let target = transition.attribute("target")
            {
                machine.states[index].historyDefault = firstTarget(target)
                machine.states[index].defaultEffects = wayInEffects(transition)
            }
            return index
        }
        let inner = element.elements.filter { ["state", "parallel", "final", "history"].contains(tag($0) ?? "") }
            .filter { flowspec($0, "role") != "route" }
        var children: [Int] = []
        for child in inner { children.append(self.state(child, parent: index)) }
        machine.states[index].children = children
        machine.states[index].isParallel = kind == "parallel"
        if children.isEmpty {
            var written = flowspec(element, "kind")
            if let kind = written, !["input", "task", "choice", "terminal"].contains(kind) {
                note(element, "not imported: the kind '\(kind)'; a state is an input, task, choice or terminal state")
                written = nil
            }
            let final = kind == "final" || (kind == "state" && element.attribute("final") == "true")
            machine.states[index].kind = written.flatMap(StateKind.init(rawValue:)) ?? (final ? .terminal : nil)
        } else if kind == "state" {
            if let initial = element.attribute("initial") {
                if initial.split(separator: " ").count > 1 {
                    note(element, "not imported: an initial of several states; the first is entered")
                }
                machine.states[index].initial = firstTarget(initial)
            } else if let initial = element.elements.first(where: { tag($0) == "initial" }),
                let transition = initial.elements.first, let target = transition.attribute("target")
            {
                if target.split(separator: " ").count > 1 {
                    note(initial, "not imported: an initial of several states; the first is entered")
                }
                machine.states[index].initial = firstTarget(target)
                machine.states[index].initialEffects = wayInEffects(transition)
            }
        }
        readContent(element, index)
        if machine.states[index].run != nil {
            machine.states[index].kind = nil  // the machine it runs says what the flow waits for
        } else if machine.states[index].kind == nil || !children.isEmpty {
            let waits = !machine.states[index].on.isEmpty || machine.states[index].timeout != nil
            machine.settleEventless(index, waits: waits, compound: !children.isEmpty) { note(element, $0) }
        }
        return index
    }

    // MARK: - What a state holds

    private mutating func readContent(_ element: XMLElement, _ index: Int) {
        var timer: (id: String?, event: String, delay: String, element: XMLElement)?
        var cancels: [(sendid: String, element: XMLElement, parent: XMLElement)] = []
        for child in element.elements {
            switch tag(child) {
            case "onentry":
                for content in child.elements {
                    if tag(content) == "send", content.attribute("delay") != nil, content.attribute("target") == nil,
                        let event = content.attribute("event")
                    {
                        if timer != nil {
                            note(
                                content,
                                "not imported: a second delayed <send> in '\(machine.states[index].name)'; a flowspec state has one timeout"
                            )
                        } else {
                            timer = (content.attribute("id"), event, content.attribute("delay")!, content)
                        }
                        continue
                    }
                    if let effect = effect(content) {
                        machine.states[index].entry.append(effect)
                    } else if !isBookkeeping(content) {
                        unsupported(content, in: child)
                    }
                }
            case "onexit":
                for content in child.elements {
                    if let effect = effect(content) {
                        machine.states[index].exit.append(effect)
                    } else if tag(content) == "cancel", let sendid = content.attribute("sendid") {
                        cancels.append((sendid, content, child))
                    } else if !isBookkeeping(content) {
                        unsupported(content, in: child)
                    }
                }
            case "transition", "state", "parallel", "final", "history", "initial": break
            case "invoke" where invoke(child, index): break
            default: unsupported(child, in: element)
            }
        }
        // The timeout's own timer, stopped on leaving the state, is part of the timeout.
        for cancel in cancels where cancel.sendid != timer?.id && !isBookkeeping(cancel.element) {
            unsupported(cancel.element, in: cancel.parent)
        }
        let own = machine.states[index]
        for transition in element.elements where tag(transition) == "transition" {
            let event = transition.attribute("event")
            if let timer, event == timer.event {
                guard let after = Self.duration(timer.delay) else {
                    note(
                        timer.element,
                        "not imported: the delay '\(timer.delay)'; a timeout is a whole number of ms, s, m or h, at most \(Duration.longestSpec.specDescription)"
                    )
                    continue
                }
                if let (_, candidates) = eventCandidates(transition, owner: index, timeout: true) {
                    if machine.states[index].timeout == nil, var first = candidates.first {
                        if first.condition != nil || first.unless != nil {
                            note(
                                transition,
                                "imported without its condition: the timeout of '\(own.name)'; a flowspec timeout has one target and no condition"
                            )
                            first.condition = nil
                            first.unless = nil
                        }
                        machine.states[index].timeout = (after, first)
                    } else if let retry = candidates.first?.retry, var existing = machine.states[index].timeout {
                        existing.candidate.retry = retry
                        machine.states[index].timeout = existing
                    }
                }
                continue
            }
            let endsInvocation = invokeIDs[index].map { invoked in
                machine.states[index].run != nil
                    && (event == "done.invoke" || event == "done.invoke.*" || event == "done.invoke." + invoked)
            }
            if let event, endsInvocation == true || event == "done.state." + (element.attribute("id") ?? "") {
                // Tried in order, with their conditions and effects, as `done`'s candidates.
                if let (_, candidates) = eventCandidates(transition, owner: index, timeout: true) {
                    machine.states[index].done += candidates
                }
                continue
            }
            if event == nil, own.isParallel, let cond = transition.attribute("cond"),
                flowspec(transition, "done") == "true" || cond.contains("In(")
            {
                // A parallel state's `done` as exported: its regions' ends (one term per region
                // once marked; the `In()` terms before), then the candidate's own guard, if any.
                var candidate = transition
                let regions = own.children.filter { machine.states[$0].deep == nil }.count
                let own =
                    flowspec(transition, "done") == "true"
                    ? Array(Self.terms(cond).dropFirst(regions)) : Self.terms(cond).filter { !$0.contains("In(") }
                candidate.attributes.removeAll { $0.name == "cond" }
                if !own.isEmpty { candidate.attributes.append(("cond", own.joined(separator: " && "))) }
                if let (_, candidates) = eventCandidates(candidate, owner: index, timeout: true) {
                    machine.states[index].done += candidates
                }
                continue
            }
            guard let (events, candidates) = eventCandidates(transition, owner: index) else {
                checkIgnored(transition, index, flowspec(element, "kind") == "terminal")
                continue
            }
            for event in events {
                if event.isEmpty {
                    machine.states[index].always += candidates
                } else {
                    machine.states[index].on.append(event, candidates)
                }
            }
        }
        if let timer, machine.states[index].timeout != nil, !cancels.contains(where: { $0.sendid == timer.id }) {
            note(
                timer.element,
                "imported as a timeout, which ends when '\(own.name)' is left; this delayed <send> is not cancelled then, so its event can still arrive later (to say what the spec says, give it an id and <cancel sendid> it in <onexit>)"
            )
        }
        if let timer, machine.states[index].timeout == nil {
            note(
                timer.element,
                "not imported: the delayed event '\(timer.event)', which '\(own.name)' does not handle; only a state's own timeout is a delay flowspec holds"
            )
        }
    }

    /// The id of each invocation that became a sub-flow, by the state that runs it: the
    /// parent hears of its end as `done.invoke.ID`.
    var invokeIDs: [Int: String] = [:]

    /// An `<invoke>` of an SCXML machine, written inside it (`<content><scxml>…`) or in the
    /// document its `src` names, becomes a sub-flow: the machine, imported as one of the
    /// spec's, and the state, which runs it. Returns false for any other invocation (reported
    /// by the caller).
    private mutating func invoke(_ invoke: XMLElement, _ index: Int) -> Bool {
        let type = invoke.attribute("type") ?? "scxml"
        guard ["scxml", "http://www.w3.org/TR/scxml", "http://www.w3.org/TR/scxml/"].contains(type),
            machine.states[index].children.isEmpty, machine.states[index].run == nil
        else { return false }
        let preferred = invoke.attribute("id").map(SCXMLMachineReader.safeName) ?? machine.states[index].name + "Flow"
        let name: String
        if let inner = invoke.elements.first(where: { tag($0) == "content" })?.elements.first(where: {
            tag($0) == "scxml"
        }) {
            name = adopt(inner, named: inner.attribute("name").map(SCXMLMachineReader.safeName) ?? preferred, from: nil)
            for attribute in ["src", "srcexpr"] where invoke.attribute(attribute) != nil {
                note(
                    invoke, "not imported: the invocation's `\(attribute)`; the sub-flow is the machine written inside")
            }
        } else if let source = invoke.attribute("src") {
            guard let found = machines.document(source) else {
                note(invoke, "not imported: the invocation of '\(source)'; this import reads no other document")
                return true
            }
            switch found {
            case .imported(let imported): name = imported
            case .document(let path, let root):
                name = machines.reading(path) {
                    adopt(root, named: root.attribute("name").map(SCXMLMachineReader.safeName) ?? preferred, from: path)
                }
            case .refused(let why):
                note(invoke, "not imported: the invocation of '\(source)': \(why)")
                return true
            case .config: return false
            }
        } else {
            return false
        }
        machine.states[index].run = name
        invokeIDs[index] = invoke.attribute("id") ?? ""
        if invoke.attribute("autoforward") != "true" {
            note(
                invoke,
                "imported as a sub-flow: the machine '\(name)' that '\(machine.states[index].name)' runs; flowspec hands a sub-flow the flow's events first, which SCXML does only with autoforward=\"true\""
            )
        }
        for other in invoke.elements where tag(other) != "content" { unsupported(other, in: invoke) }
        for attribute in ["idlocation", "namelist", "typeexpr"] where invoke.attribute(attribute) != nil {
            note(invoke, "not imported: the invocation's `\(attribute)`; flowspec runs the sub-flow as it is")
        }
        return true
    }

    /// Reads the machine of `inner` (from the input at `path`, `nil` for this one) and takes
    /// it in as one of the spec's; returns its name there.
    private mutating func adopt(_ inner: XMLElement, named preferred: String, from path: String?) -> String {
        var reader = SCXMLMachineReader(root: inner, machines: machines)
        let child = reader.read()
        notes += reader.notes.written(in: path)
        return machine.adopt(child, as: machines.claim(preferred))
    }

    /// A transition without a target, content or condition ignores its event there. flowspec's
    /// states do so for an event they handle under conditions none of which holds, and
    /// terminal states for every event: anywhere else it is reported.
    private mutating func checkIgnored(_ transition: XMLElement, _ index: Int, _ terminal: Bool) {
        guard transition.attribute("target") == nil, transition.elements.isEmpty,
            transition.attribute("cond") == nil, flowspec(transition, "stays") == nil
        else { return }
        let event = flowspec(transition, "event") ?? transition.attribute("event") ?? ""
        // After candidates that all have conditions: the search for the event ends here.
        if machine.states[index].on.handles(event) { machine.states[index].endsSearch.insert(event) }
        if !terminal, !machine.states[index].on.handles(event) {
            note(
                transition,
                "not imported: a transition that ignores '\(event)' in '\(machine.states[index].name)'; a flowspec state leaves an event it does not handle to the states around it"
            )
        }
    }

    /// Content flowspec's export writes for its own bookkeeping: counters set to 0, timers
    /// cancelled when a terminal state rests.
    private func isBookkeeping(_ content: XMLElement) -> Bool {
        switch tag(content) {
        case "assign": return counters.contains(content.attribute("location") ?? "")
        case "cancel": return content.attribute("sendid")?.contains("flowspec.timeout.") == true
        case "if": return !content.elements.isEmpty && content.elements.allSatisfy { isBookkeeping($0) }
        default: return false
        }
    }

    /// The effects of the transition of an `<initial>` or a `<history>`: what its content
    /// logs as effects; any other content is reported.
    private mutating func wayInEffects(_ transition: XMLElement) -> [String] {
        var effects: [String] = []
        for content in transition.elements {
            if let effect = effect(content) {
                effects.append(effect)
            } else {
                unsupported(content, in: transition)
            }
        }
        return effects
    }

    private mutating func effect(_ content: XMLElement) -> String? {
        guard tag(content) == "log", content.attribute("label") == "effect", let expr = content.attribute("expr"),
            expr.count >= 2, expr.hasPrefix("'"), expr.hasSuffix("'")
        else { return nil }
        let name = String(expr.dropFirst().dropLast())
        if effectSet.insert(name).inserted { machine.effects.append(name) }
        return name
    }

    private mutating func target(_ ids: String) -> String? {
        let all = ids.split(separator: " ").map(String.init)
        let first = routes[all[0]] ?? all[0]
        return names[first] ?? SCXMLMachineReader.safeName(first)
    }

    /// The event (empty for an eventless transition) and candidates of a transition; `nil`
    /// when it is left out (reported) or stands for flowspec's own behaviour (an override).
    private mutating func eventCandidates(
        _ transition: XMLElement, owner: Int?, timeout: Bool = false
    ) -> ([String], [Candidate])? {
        let written = flowspec(transition, "event") ?? transition.attribute("event") ?? ""
        var events = timeout || written.isEmpty ? [""] : []
        if !timeout, flowspec(transition, "event") != nil {
            events = [written]
        } else if !timeout {
            // Descriptors may match the same events: a set keeps adding them linear.
            var added: Set<String> = []
            for descriptor in written.split(separator: " ").map(String.init) {
                if let platform = Self.platformEvent(descriptor) {
                    note(transition, "not imported: a transition on '\(descriptor)', \(platform)")
                    continue
                }
                let matching = matched(descriptor)
                if descriptor == "*" || descriptor.hasSuffix(".*") {
                    note(
                        transition,
                        "imported as the events it matches (\(matching.joined(separator: ", "))): the wildcard '\(descriptor)'; an event the document does not name is no longer handled"
                    )
                }
                for event in matching where added.insert(event).inserted { events.append(event) }
            }
            if events.isEmpty { return nil }
        }
        if transition.attribute("type") == "internal", transition.attribute("target") != nil {
            note(
                transition,
                "imported as external: an internal transition; flowspec's transitions leave and enter their source")
        }
        var effects: [String] = []
        var counting: String?
        for content in transition.elements {
            if let effect = effect(content) {
                effects.append(effect)
            } else if tag(content) == "assign", let location = content.attribute("location"),
                counters.contains(location)
            {
                counting = location
            } else {
                unsupported(content, in: transition)
            }
        }
        var target: String?
        if let targets = transition.attribute("target") {
            if targets.split(separator: " ").count > 1 {
                note(transition, "not imported: a transition to several states (\(targets)); its first is kept")
            }
            guard let first = self.target(targets) else { return nil }
            target = first
        } else if effects.isEmpty && transition.attribute("cond") == nil && flowspec(transition, "stays") == nil {
            return nil  // an override: flowspec's own behaviour
        } else if events == [""] {
            note(
                transition,
                "not imported: an eventless transition without a target; a flowspec `always` goes to a state")
            return nil
        }
        var candidate = Candidate(target: target, effects: effects)
        var retryBound: (counter: String, max: Int, below: Bool)?
        if let cond = transition.attribute("cond") {
            for term in Self.terms(cond) {
                if let literal = Self.literal(term) {
                    if literal { continue }
                    note(
                        transition,
                        "not imported: a transition whose condition '\(cond)' is always false; it is never taken")
                    return nil
                }
                if let bound = counterTest(term) {
                    retryBound = bound
                } else if let (id, holds) = Self.inState(term) {
                    // SCXML's own predicate on the configuration: flowspec's `in:`, `notIn:`.
                    let state = self.target(id)
                    if holds {
                        if candidate.inState != nil { return expression(cond, transition, target, effects, events) }
                        candidate.inState = state
                    } else {
                        if candidate.notInState != nil { return expression(cond, transition, target, effects, events) }
                        candidate.notInState = state
                    }
                } else if let name = variables[term] ?? (Self.isIdentifier(term) ? term : nil) {
                    if candidate.condition != nil { return expression(cond, transition, target, effects, events) }
                    candidate.condition = declare(name)
                } else if let negated = Self.negated(term),
                    let name = variables[negated] ?? (Self.isIdentifier(negated) ? negated : nil)
                {
                    if candidate.unless != nil { return expression(cond, transition, target, effects, events) }
                    candidate.unless = declare(name)
                } else {
                    return expression(cond, transition, target, effects, events)
                }
            }
        }
        if let retryBound {
            guard let target else {
                note(transition, "not imported: a bounded retry on a transition without a target")
                return nil
            }
            if retryBound.below {
                pendingRetry = (retryBound.counter, retryBound.max, candidate)
                _ = counting
                return nil
            }
            if let pending = pendingRetry, pending.counter == retryBound.counter {
                var counted = pending.candidate
                let extra = Array(effects.dropFirst(counted.effects.count))
                counted.retry = (retryBound.max, target, extra)
                pendingRetry = nil
                return (events, [counted])
            }
        }
        if let owner, let target { targeted.append((owner, target, transition.location)) }
        return (events, [candidate])
    }

    /// A transition written in a region (by the region or a state inside it) to the region
    /// itself, or by the region to a state inside it: SCXML leaves and enters the whole
    /// parallel state (a transition's domain is never a parallel state), where flowspec's
    /// decision restarts the region alone (`docs/language.md`, "Parallel states"). The spec
    /// cannot say the first yet, so each is named where it is written.
    private mutating func noteRegionRestarts() {
        guard machine.states.contains(where: \.isParallel) else { return }
        let indexOfName = machine.indexOfName()
        func region(of state: Int) -> (region: Int, parallel: Int)? {
            var current = state
            while let parent = machine.states[current].parent {
                if machine.states[parent].isParallel { return (current, parent) }
                current = parent
            }
            return nil
        }
        for (source, target, location) in targeted {
            guard let (region, parallel) = region(of: source), let index = indexOfName[target],
                index == region || (source == region && machine.isWithin(index, region))
            else { continue }
            notes.append(
                SCXMLImporter.Note(
                    location: location,
                    message:
                        "imported with a change: a transition written in region '\(machine.states[region].name)' to '\(target)'; SCXML leaves and enters the whole parallel state '\(machine.states[parallel].name)', flowspec restarts region '\(machine.states[region].name)' alone"
                ))
        }
    }

    /// The events of the document an SCXML event descriptor matches: the event it names and
    /// those that continue it after a dot (`reply` matches `reply.2xx`), or every event (`*`).
    /// flowspec events are matched exactly, so a descriptor becomes each event it matches.
    private mutating func matched(_ descriptor: String) -> [String] {
        if continuations == nil {
            var trie = EventTrie()
            for event in knownEvents where !delayedEvents.contains(event) { trie.insert(event) }
            continuations = trie
        }
        if descriptor == "*" || descriptor == ".*" { return continuations!.continuing("") }
        let prefix = descriptor.hasSuffix(".*") ? String(descriptor.dropLast(2)) : descriptor
        let continuing = continuations!.continuing(prefix)
        return (knownEventSet.contains(prefix) || continuing.isEmpty ? [prefix] : []) + continuing
    }

    /// Why a transition on one of the platform's own events is not imported, or `nil`.
    static func platformEvent(_ descriptor: String) -> String? {
        if descriptor == "done" || descriptor.hasPrefix("done.") {
            return
                "an event the SCXML platform sends when a state is done or an invocation ends; a flowspec state's own end is its `done`"
        }
        if descriptor == "error" || descriptor.hasPrefix("error.") {
            return "an error the SCXML platform sends; flowspec machines raise none"
        }
        return nil
    }

    /// Every event the document's transitions name, in document order (not the platform's).
    var knownEvents: [String] = []
    var knownEventSet: Set<String> = []
    /// The events ``matched(_:)`` reads, by their tokens; built at its first call.
    var continuations: EventTrie?
    /// The events of delayed `<send>`s: timeouts, which only a descriptor naming one matches.
    var delayedEvents: Set<String> = []

    /// The counting half of a bounded retry, waiting for its `then` half.
    var pendingRetry: (counter: String, max: Int, candidate: Candidate)?
    /// Every transition with a target, with the state it is written in and where: read once
    /// every state is, for ``noteRegionRestarts()``.
    var targeted: [(source: Int, target: String, location: SourceLocation)] = []

    private mutating func declare(_ condition: String) -> String {
        machine.declare(condition)
    }

    /// A condition SCXML writes as an expression flowspec cannot read: a named condition of its
    /// own, the expression kept beside it, reported.
    private mutating func expression(
        _ cond: String, _ transition: XMLElement, _ target: String?, _ effects: [String], _ events: [String]
    ) -> ([String], [Candidate]) {
        let name = "condition\(machine.expressions.count + 1)"
        machine.expressions[name] = cond
        note(transition, "imported as the condition '\(name)': the expression '\(cond)', which the app now supplies")
        return (events, [Candidate(target: target, condition: declare(name), effects: effects)])
    }

    // MARK: - Expressions

    static func terms(_ cond: String) -> [String] {
        var text = cond
        for and in [" && ", " and "] { text = text.split(separator: and).joined(separator: "\u{1}") }
        return text.split(separator: "\u{1}").map { String($0).trimmingSpaces() }
    }

    /// The state of an `In('id')` term, and whether it must hold (`!In('id')`, `not In('id')`).
    static func inState(_ term: String) -> (id: String, holds: Bool)? {
        let negated = self.negated(term)
        let call = negated ?? term
        guard call.hasPrefix("In("), call.hasSuffix(")") else { return nil }
        let argument = String(call.dropFirst(3).dropLast()).trimmingSpaces()
        guard argument.count >= 2, let quote = argument.first, quote == "'" || quote == "\"", argument.last == quote
        else { return nil }
        let id = String(argument.dropFirst().dropLast())
        guard !id.isEmpty, !id.contains(quote) else { return nil }
        return (id, negated == nil)
    }

    static func negated(_ term: String) -> String? {
        if term.hasPrefix("!") { return String(term.dropFirst()).trimmingSpaces() }
        if term.hasPrefix("not ") { return String(term.dropFirst(4)).trimmingSpaces() }
        return nil
    }

    /// The value of a term that is a literal, `true` or `false`, negated or not: what it
    /// always is, not a condition the app supplies.
    static func literal(_ term: String) -> Bool? {
        switch term {
        case "true": return true
        case "false": return false
        default: return negated(term).flatMap(literal).map { !$0 }
        }
    }

    static func isIdentifier(_ term: String) -> Bool {
        guard let first = term.first, first.isLetter || first == "_" else { return false }
        return term.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `COUNT < N` or `COUNT >= N`, where COUNT is the export's expression of a retry counter
    /// (`SCXMLDocumentWriter.count(_:)`): the counter it reads, the bound, and which test.
    func counterTest(_ term: String) -> (counter: String, max: Int, below: Bool)? {
        for (operation, below) in [(" < ", true), (" >= ", false)] {
            let parts = term.split(separator: operation).map(String.init)
            guard parts.count == 2, let max = Int(parts[1]) else { continue }
            let words = parts[0].split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
            if let counter = words.first(where: { counters.contains($0) && !$0.contains("epoch") }) {
                return (counter, max, below)
            }
        }
        return nil
    }

    /// An SCXML delay (CSS2 time: `10s`, `250ms`; also `m`, `h`) as a spec duration; `nil`
    /// for any other, and for one longer than a spec duration can be (which the spec's own
    /// check would refuse).
    static func duration(_ delay: String) -> Duration? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        for (unit, factor) in units where delay.hasSuffix(unit) {
            guard let value = Int64(delay.dropLast(unit.count)), value > 0 else { continue }
            let (milliseconds, overflow) = value.multipliedReportingOverflow(by: factor)
            guard !overflow, let duration = Duration.parseSpec("\(milliseconds)ms") else { return nil }
            return duration
        }
        return nil
    }
}

/// Events by their dot-separated tokens (`reply.2xx` is `reply`, `2xx`), each node holding the
/// events that continue the tokens leading to it, in the order inserted: what an SCXML event
/// descriptor matches. Inserting an event walks its tokens once, so a document of many events,
/// or of one event of many tokens, is indexed in time linear in its length; a table of every
/// prefix as a string would copy each prefix, which is quadratic in an event's length.
struct EventTrie {
    /// Each node's children, by token; node 0 is the root (the empty prefix).
    private var children: [[Substring: Int]] = [[:]]
    /// Each node's events: those that go on past its tokens, after a dot; the root's are all.
    private var events: [[String]] = [[]]

    /// Adds `event` under the root and under each of its proper prefixes.
    mutating func insert(_ event: String) {
        var node = 0
        events[0].append(event)
        for token in event.split(separator: ".", omittingEmptySubsequences: false).dropLast() {
            if let next = children[node][token] {
                node = next
            } else {
                children[node][token] = children.count
                node = children.count
                children.append([:])
                events.append([])
            }
            events[node].append(event)
        }
    }

    /// The events that continue `prefix` after a dot, in the order inserted; every event for
    /// the empty prefix.
    func continuing(_ prefix: String) -> [String] {
        guard !prefix.isEmpty else { return events[0] }
        var node = 0
        for token in prefix.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = children[node][token] else { return [] }
            node = next
        }
        return events[node]
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
