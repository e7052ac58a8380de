/// `flowspec export --format scxml`: a checked machine as a W3C SCXML 1.0 document that an
/// SCXML engine runs as `flowspec simulate` does (docs/interop.md gives the mapping and the
/// reasons for each choice).
///
/// The document keeps the spec's structure: a state is an SCXML state, a compound state holds
/// its states, a parallel state is a `<parallel>`, a history state a `<history>`. Where
/// flowspec decides what SCXML leaves to the author, the document says it in SCXML's terms:
/// a state that handles an event ends the search for a transition with a targetless
/// transition; a state's timeout is a delayed `<send>` cancelled on exit; a bounded retry is a
/// counter in the datamodel; an effect is a `<log label="effect">`. What SCXML cannot hold
/// (sequences, persistence, requirements, activities) is listed in a comment.
public enum SCXMLExporter {
    /// The language of the datamodel's expressions (conditions and counters).
    public enum Datamodel: String, Sendable, CaseIterable {
        /// ECMAScript: the standard's, run by Qt SCXML, Apache Commons SCXML and scion.
        case ecmascript
        /// Python: run by python-statemachine.
        case python
    }

    /// The namespace of the attributes that keep what SCXML has no word for (a state's kind,
    /// a name SCXML cannot spell), so that `flowspec import` reads the document back exactly.
    public static let namespace = "urn:flowspec:scxml"

    /// The document of a checked machine (one without errors): the same machine always
    /// gives the same bytes.
    public static func document(_ graph: MachineGraph, datamodel: Datamodel = .ecmascript) -> String {
        var writer = SCXMLDocumentWriter(graph.machine, states: graph.stateIndex, datamodel: datamodel)
        let root = writer.root()
        return root.document(comment: writer.notes())
    }
}

/// Writes one machine as SCXML (see ``SCXMLExporter``).
struct SCXMLDocumentWriter {
    typealias Element = XMLElement

    let machine: MachineSpec
    /// The machine's states by name.
    let states: StateIndex
    let datamodel: SCXMLExporter.Datamodel
    let nesting: Nesting
    /// Per state, its SCXML id.
    var ids: [String] = []
    /// The id of the state that holds the machine-wide `on`, when there is one.
    var machineID: String?
    /// Spec event name → SCXML event name.
    var events: [String: String] = [:]
    /// Condition name → datamodel variable.
    var conditions: [String: String] = [:]
    /// The datamodel variables of the retry counters, one per bounded retry, and of the epoch
    /// each was last counted in (see ``count(_:)``).
    var counters: [String] = []
    var counterEpochs: [String] = []
    /// The datamodel variable of the current epoch.
    var epoch = "flowspec_epoch"
    /// The prefix of the events flowspec sends itself (timeouts).
    var timeoutPrefix = "flowspec.timeout."
    /// Router states for transitions into a history state from inside its compound state, by
    /// history state: created as transitions need them.
    var routers: [Int: String] = [:]
    var routerElements: [Int: [Element]] = [:]
    var takenIDs: Set<String> = []

    init(_ machine: MachineSpec, states: StateIndex, datamodel: SCXMLExporter.Datamodel) {
        self.machine = machine
        self.states = states
        self.datamodel = datamodel
        self.nesting = machine.nesting
        for index in machine.states.indices { ids.append(unique(SCXMLNames.id(machine.name(of: index)))) }
        if !machine.machineWide.isEmpty { machineID = unique(SCXMLNames.id(machine.name.value)) }
        nameEvents()
        var variables: Set<String> = []
        for condition in machine.conditions ?? [] {
            var variable = SCXMLNames.variable(condition.value)
            while variables.contains(variable) { variable += "_" }
            variables.insert(variable)
            conditions[condition.value] = variable
        }
        func unused(_ name: String) -> String {
            var variable = name
            while variables.contains(variable) { variable += "_" }
            variables.insert(variable)
            return variable
        }
        for slot in 0..<machine.boundedRetryCount {
            counters.append(unused("flowspec_retry_\(slot)"))
            counterEpochs.append(unused("flowspec_retry_\(slot)_epoch"))
        }
        epoch = unused("flowspec_epoch")
    }

    /// The count of retry counter `slot`: its value if it was counted since the flow last
    /// entered an `input` or `terminal` state (in the current epoch), else 0. Entering such a
    /// state starts a new epoch, one assignment, rather than setting every counter to 0: the
    /// document then grows with the states and transitions, not with their product.
    /// Written alike in both datamodels: a true comparison counts as 1 in ECMAScript and Python.
    private func count(_ slot: Int) -> String {
        "\(counters[slot]) * (\(counterEpochs[slot]) == \(epoch))"
    }

    /// The comment at the top: where the document comes from, and what it does not hold.
    func notes() -> [String] {
        var lines = ["flowspec export of machine '\(machine.name.value)'. Effects are <log label=\"effect\">;"]
        lines.append("timeouts are delayed <send> events named \(timeoutPrefix)STATE.")
        var left = machine.sectionsNotCarriedOver
        if let activities = machine.activities, !activities.isEmpty {
            left.append(
                "activities (" + activities.map(\.name.value).joined(separator: ", ")
                    + "; kept in flowspec: attributes)")
        }
        if !left.isEmpty { lines.append("Not carried over: " + left.joined(separator: ", ") + ".") }
        return lines
    }

    // MARK: - Names

    private mutating func unique(_ id: String) -> String {
        var candidate = id
        var suffix = 2
        while takenIDs.contains(candidate) {
            candidate = id + "_\(suffix)"
            suffix += 1
        }
        takenIDs.insert(candidate)
        return candidate
    }

    /// Names every event SCXML's way: as written, unless SCXML would read it differently (a
    /// space splits an event list; an event is a prefix of every event that continues it after
    /// a dot, and the platform sends `done.…` and `error.…`).
    private mutating func nameEvents() {
        var names: [String] = []
        var seen: Set<String> = []
        func add(_ name: Name) {
            let text = machine.names[name]
            if seen.insert(text).inserted { names.append(text) }
        }
        for transition in machine.machineWide { add(transition.event.value) }
        for index in machine.states.indices {
            let own = machine.transitions(of: index)
            for position in own.indices { add(own[position].event.value) }
        }
        while names.contains(where: { timeoutPrefix.hasPrefix($0 + ".") }) { timeoutPrefix = "_" + timeoutPrefix }
        let reserved = ["done", "error", String(timeoutPrefix.dropLast())]
        var taken = Set(names)
        for name in names {
            let clashes =
                name.contains(" ")
                || reserved.contains { $0 == name || $0.hasPrefix(name + ".") || name.hasPrefix($0 + ".") }
                || names.contains { $0 != name && $0.hasPrefix(name + ".") }
            guard clashes else {
                events[name] = name
                continue
            }
            var escaped = String(name.map { $0 == " " || $0 == "." ? "_" : $0 }) + "_"
            while taken.contains(escaped) { escaped += "_" }
            taken.insert(escaped)
            events[name] = escaped
        }
    }

    // MARK: - The document

    /// The index of the state named `name` (a checked machine names only its own states).
    private func stateNamed(_ name: Name) -> Int { states[name] ?? 0 }

    /// The `<scxml>` element.
    mutating func root() -> Element {
        var slots = 0
        var top: [Element] = []
        var machineTransitions: [Element] = []
        for transition in machine.machineWide {
            machineTransitions += candidates(
                transition.candidates, event: machine.names[transition.event.value], from: nil, &slots)
        }
        for index in machine.states.indices where nesting.parent(of: index) == nil {
            top.append(state(index, &slots))
        }
        let initial = machine.initial.map { name in
            ids[machine.states.indices.first { machine.name(of: $0) == name.value } ?? 0]
        }
        var root = Element(
            "scxml",
            [
                ("xmlns", "http://www.w3.org/2005/07/scxml"), ("xmlns:flowspec", SCXMLExporter.namespace),
                ("version", "1.0"), ("name", machine.name.value), ("datamodel", datamodel.rawValue)
            ] + (machineID == nil ? initial.map { [("initial", $0)] } ?? [] : []))
        if let summary = machine.summary { root.attributes.append((name: "flowspec:summary", value: summary)) }
        // Lists of names join with `,` and `;`, which no spec name holds.
        if let events = machine.events {
            root.attributes.append((name: "flowspec:events", value: events.map(\.value).joined(separator: ",")))
        }
        if let activities = machine.activities, !activities.isEmpty {
            let declarations = activities.map { ([$0.name.value] + $0.sends.map(\.value)).joined(separator: ",") }
            root.attributes.append((name: "flowspec:activities", value: declarations.joined(separator: ";")))
        }
        if !conditions.isEmpty || !counters.isEmpty {
            var model = Element("datamodel")
            for condition in machine.conditions ?? [] {
                var data = Element("data", [("id", conditions[condition.value]!), ("expr", literal(false))])
                if conditions[condition.value] != condition.value {
                    data.attributes.append(("flowspec:name", condition.value))
                }
                model.append(data)
            }
            for (counter, counterEpoch) in zip(counters, counterEpochs) {
                model.append(Element("data", [("id", counter), ("expr", "0")]))
                model.append(Element("data", [("id", counterEpoch), ("expr", "0")]))
            }
            if !counters.isEmpty { model.append(Element("data", [("id", epoch), ("expr", "0")])) }
            root.append(model)
        }
        if let machineID {
            var wrapper = Element(
                "state",
                [("id", machineID)] + (initial.map { [("initial", $0)] } ?? []) + [("flowspec:role", "machine")])
            wrapper.children = top.map { .element($0) } + machineTransitions.map { .element($0) }
            root.append(wrapper)
        } else {
            root.children += top.map { .element($0) }
        }
        return root
    }

    private func literal(_ value: Bool) -> String {
        switch datamodel {
        case .ecmascript: value ? "true" : "false"
        case .python: value ? "True" : "False"
        }
    }

    /// The element of a state and everything inside it.
    private mutating func state(_ index: Int, _ slots: inout Int) -> Element {
        let spec = machine.states[index]
        let name = machine.name(of: index)
        if machine.isHistory(index) { return history(index) }
        let final = isFinal(index)
        let elementName = machine.isParallel(index) ? "parallel" : final ? "final" : "state"
        var element = Element(elementName, [("id", ids[index])])
        if machine.isCompound(index), !machine.isParallel(index) {
            let children = nesting.children(of: index)
            let initial =
                nesting.details[index]?.initial.map { written in
                    children.first { machine.name(of: $0) == written.value }
                }
                ?? children.first { !machine.isHistory($0) }
            // An `initial` with effects is SCXML's `<initial>` element, its transition running them.
            let effects = nesting.details[index]?.initialEffects ?? []
            if let initial = initial ?? nil, effects.isEmpty { element.attributes.append(("initial", ids[initial])) }
            if let initial = initial ?? nil, !effects.isEmpty {
                let transition = Element(
                    "transition", [("target", ids[initial])], effects.map { .element(log($0.value)) })
                element.append(Element("initial", [], [.element(transition)]))
            }
        }
        if ids[index] != name { element.attributes.append(("flowspec:name", name)) }
        if machine.isLeaf(index) { element.attributes.append(("flowspec:kind", spec.kind.rawValue)) }
        if let summary = spec.summary { element.attributes.append(("flowspec:summary", summary)) }
        let activities = nesting.details[index]?.activities.map(\.value) ?? []
        if !activities.isEmpty {
            element.attributes.append(("flowspec:activities", activities.joined(separator: ",")))
        }

        var onentry: [Element] = []
        if machine.isLeaf(index), spec.kind == .input || spec.kind == .terminal {
            if !counters.isEmpty { onentry.append(Element("assign", [("location", epoch), ("expr", epoch + " + 1")])) }
        }
        onentry += nesting.entry(of: index).map { log($0.value) }
        // A terminal state that rests ends the flow, or its part of a parallel state: the
        // timers of the states around it that only it keeps active stop (those of a parallel
        // state and around it run on with the other regions).
        if machine.isLeaf(index), spec.kind == .terminal, !final {
            let ancestors = nesting.ancestors(of: index)
            let alone = ancestors.prefix { !machine.isParallel($0) }.count
            for (position, ancestor) in ancestors.enumerated().reversed() where machine.states[ancestor].timeout != nil
            {
                let cancel = Element("cancel", [("sendid", timeoutSendID(ancestor))])
                if position < alone {
                    onentry.append(cancel)
                } else if let rests = rests(ancestor) {
                    onentry.append(Element("if", [("cond", rests)], [.element(cancel)]))
                }
            }
        }
        var onexit: [Element] = []
        if let timeout = spec.timeout, let after = timeout.after {
            let sendID = timeoutSendID(index)
            onentry.append(
                Element(
                    "send", [("id", sendID), ("event", timeoutPrefix + ids[index]), ("delay", delay(after.value))]))
            onexit.append(Element("cancel", [("sendid", sendID)]))
        }
        onexit += nesting.exit(of: index).map { log($0.value) }
        if !onentry.isEmpty { element.append(Element("onentry", [], onentry.map { .element($0) })) }
        if !onexit.isEmpty { element.append(Element("onexit", [], onexit.map { .element($0) })) }

        var transitions: [Element] = []
        let above = machine.eventsHandled(around: index)
        let own = machine.transitions(of: index)
        for position in own.indices {
            let event = machine.names[own[position].event.value]
            let candidates = own[position].candidates
            transitions += self.candidates(candidates, event: event, from: index, &slots)
            // A state that handles an event overrides the states around it, even when no
            // candidate's condition holds: the event then ends here, ignored.
            if above.contains(event), !candidates.contains(where: { $0.isUnconditional }) {
                transitions.append(transition(event, [], nil, []))
            }
        }
        if let always = spec.always { transitions += candidates(always.value, event: nil, from: index, &slots) }
        if let timeout = spec.timeout {
            transitions += candidates(
                Candidates(
                    Candidate(
                        location: timeout.location, target: timeout.target, effects: timeout.effects,
                        retry: timeout.retry)),
                event: nil, timeoutOf: index, from: index, &slots)
        }
        if let done = nesting.details[index]?.done {
            if !machine.isParallel(index) {
                transitions += candidates(done.value, event: "done.state." + ids[index], from: index, &slots)
            } else if let ended = regionsEnded(index) {
                // Marked, so that the import tells the regions' ends from the candidates' own
                // guards, which may read where the flow is too.
                transitions += candidates(done.value, event: nil, guardedBy: [ended], from: index, &slots).map {
                    var marked = $0
                    marked.attributes.append(("flowspec:done", "true"))
                    return marked
                }
            }
        }
        // A terminal state that rests (the flow, or its region, has ended) ignores what the
        // states around it handle.
        if machine.isLeaf(index), spec.kind == .terminal, !final {
            for event in above.sorted() { transitions.append(transition(event, [], nil, [])) }
        }
        for child in nesting.children(of: index) { element.append(state(child, &slots)) }
        for router in routerElements[index] ?? [] { element.append(router) }
        element.children += transitions.map { .element($0) }
        return element
    }

    private func history(_ index: Int) -> Element {
        let details = nesting.details[index]
        var element = Element(
            "history", [("id", ids[index]), ("type", details?.deep?.value == true ? "deep" : "shallow")])
        if ids[index] != machine.name(of: index) {
            element.attributes.append(("flowspec:name", machine.name(of: index)))
        }
        let target = machine.historyDefault(of: index, states: states)
        let effects = machine.historyDefaultEffects(of: index)
        element.append(Element("transition", [("target", ids[target])], effects.map { .element(log($0.value)) }))
        return element
    }

    /// Whether a state is an SCXML `<final>`: a terminal state whose compound state leaves
    /// through `done`. A terminal state that ends the flow is an ordinary state that handles
    /// nothing, since a `<final>` at the top would end the session, while a flowspec flow that
    /// has ended stays where it is. So is one that ends a region: a `<final>` may hold no
    /// transition, and the region's would still be taken through it (see ``regionsEnded(_:)``).
    private func isFinal(_ index: Int) -> Bool {
        guard machine.isLeaf(index), machine.states[index].kind == .terminal, let parent = nesting.parent(of: index)
        else { return false }
        return nesting.details[parent]?.done != nil && !machine.isParallel(parent)
    }

    /// The condition under which every region of a parallel state has ended (each is in one
    /// of the terminal states directly inside it), or `nil` if some region never ends. It
    /// guards the parallel state's `done`, an eventless transition, since its regions end in
    /// ordinary states rather than SCXML's `<final>`.
    private func regionsEnded(_ parallel: Int) -> String? {
        var terms: [String] = []
        for region in nesting.children(of: parallel) where !machine.isHistory(region) {
            let ends = nesting.children(of: region).filter(machine.endsRegion)
            guard !ends.isEmpty else { return nil }
            terms.append(joined(ends.map { "In('\(ids[$0])')" }, all: false))
        }
        return joined(terms, all: true)
    }

    /// The condition under which every state the flow is in inside a state is a terminal
    /// state that rests (so nothing keeps that state's timer armed), or `nil` if it cannot be.
    private func rests(_ index: Int) -> String? {
        if machine.isHistory(index) { return nil }
        if machine.isLeaf(index) {
            return machine.states[index].kind == .terminal && !isFinal(index) ? "In('\(ids[index])')" : nil
        }
        // A history state beside a parallel state's regions is none of them.
        let children = nesting.children(of: index).filter { !machine.isHistory($0) }.map(rests)
        if machine.isParallel(index) {
            guard children.allSatisfy({ $0 != nil }) else { return nil }
            return joined(children.compactMap { $0 }, all: true)
        }
        let options = children.compactMap { $0 }
        return options.isEmpty ? nil : joined(options, all: false)
    }

    /// Conditions joined by `and` (all) or `or`, in the datamodel's words.
    private func joined(_ terms: [String], all: Bool) -> String {
        guard terms.count > 1 else { return terms.first ?? "" }
        let word =
            switch (datamodel, all) {
            case (.python, true): " and "
            case (.python, false): " or "
            case (.ecmascript, true): " && "
            case (.ecmascript, false): " || "
            }
        return terms.map { $0.contains(" ") ? "(" + $0 + ")" : $0 }.joined(separator: word)
    }

    private func timeoutSendID(_ index: Int) -> String { timeoutPrefix + ids[index] }

    /// A duration as SCXML writes it (CSS2 time: seconds or milliseconds).
    private func delay(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(milliseconds)ms"
    }

    private func log(_ effect: String) -> Element {
        Element("log", [("label", "effect"), ("expr", "'" + effect + "'")])
    }

    /// The transitions of a list of candidates, tried in order; a bounded retry is two: one
    /// that counts while the count is below its bound, and one to `then` once it is not.
    private mutating func candidates(
        _ candidates: Candidates, event: String?, timeoutOf timedState: Int? = nil, guardedBy written: [String] = [],
        from source: Int?, _ slots: inout Int
    ) -> [Element] {
        var elements: [Element] = []
        let eventName = timedState.map { timeoutPrefix + ids[$0] } ?? event
        for candidate in candidates {
            var guards = written
            if let condition = candidate.condition { guards.append(conditions[condition.value]!) }
            if let condition = candidate.unlessCondition { guards.append(negated(conditions[condition.value]!)) }
            // Where the flow is: SCXML's own predicate, on the configuration.
            for term in candidate.stateTerms {
                let read = "In('\(ids[stateNamed(term.state.value)])')"
                guards.append(term.holds ? read : negated(read))
            }
            let effects = candidate.effects.map { log($0.value) }
            // A candidate without a target is SCXML's targetless transition, alike.
            let target = candidate.target.map { self.target(stateNamed($0.value), from: source) }
            guard let retry = candidate.retry, let max = retry.max?.value else {
                var element = transition(eventName, guards, target, effects)
                if target == nil, guards.isEmpty, effects.isEmpty {
                    // Unlike the targetless transitions the export writes to end a search,
                    // this one is the spec's: it handles the event, doing nothing.
                    element.attributes.append(("flowspec:stays", "true"))
                }
                elements.append(element)
                continue
            }
            let slot = slots
            slots += 1
            let counting = [
                Element("assign", [("location", counters[slot]), ("expr", count(slot) + " + 1")]),
                Element("assign", [("location", counterEpochs[slot]), ("expr", epoch)])
            ]
            elements.append(transition(eventName, guards + ["\(count(slot)) < \(max)"], target, counting + effects))
            elements.append(
                transition(
                    eventName, guards + ["\(count(slot)) >= \(max)"],
                    self.target(stateNamed(retry.then.value), from: source),
                    effects + retry.effects.map { log($0.value) }))
        }
        return elements
    }

    /// A transition on a spec event (or one of flowspec's own, by its SCXML name), with the
    /// spec's name kept when SCXML's differs.
    private func transition(_ event: String?, _ guards: [String], _ target: String?, _ content: [Element]) -> Element {
        var attributes: [(String, String)] = []
        let scxmlEvent = event.map { events[$0] ?? $0 }
        if let scxmlEvent { attributes.append(("event", scxmlEvent)) }
        if !guards.isEmpty {
            attributes.append(("cond", guards.joined(separator: datamodel == .python ? " and " : " && ")))
        }
        if let target { attributes.append(("target", target)) }
        if let event, let scxmlEvent, scxmlEvent != event { attributes.append(("flowspec:event", event)) }
        return Element("transition", attributes, content.map { .element($0) })
    }

    private func negated(_ variable: String) -> String {
        datamodel == .python ? "not " + variable : "!" + variable
    }

    /// The SCXML target of a transition from `source` to `target`. flowspec leaves every
    /// state inside a compound state on a transition into its history state from inside it;
    /// SCXML would leave only up to the state the history resumes. So such a transition goes
    /// to a router directly inside the compound state, which goes on to the history state at
    /// once; the compound state is not left, so nothing more is recorded. (A history state of a
    /// parallel state needs none: a parallel state is no transition domain, so SCXML leaves it
    /// and enters it again, as flowspec does.)
    private mutating func target(_ target: Int, from source: Int?) -> String {
        guard let source, machine.isHistory(target), let parent = nesting.parent(of: target),
            !machine.isParallel(parent), nesting.isWithin(source, parent), source != parent
        else { return ids[target] }
        if let router = routers[target] { return router }
        let router = unique("route_" + ids[target])
        routers[target] = router
        routerElements[parent, default: []].append(
            Element(
                "state", [("id", router), ("flowspec:role", "route")],
                [.element(Element("transition", [("target", ids[target])]))]))
        return router
    }
}

/// How flowspec's names become SCXML's.
enum SCXMLNames {
    /// A state id (an XML NCName): the name with spaces as `_`.
    static func id(_ name: String) -> String {
        String(name.map { $0 == " " ? "_" : $0 })
    }

    /// A datamodel variable: an identifier in ECMAScript and Python alike, not a keyword of
    /// either (nor a name SCXML reserves).
    static func variable(_ name: String) -> String {
        var variable = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if variable.hasPrefix("_") || reservedWords.contains(variable) { variable = "c_" + variable }
        return variable
    }

    static let reservedWords: Set<String> = [
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "case", "catch", "class",
        "const", "continue", "debugger", "def", "default", "del", "delete", "do", "elif", "else", "enum",
        "eval", "except", "export", "extends", "false", "finally", "for", "from", "function", "global", "if",
        "implements", "import", "in", "instanceof", "interface", "is", "lambda", "let", "new", "nonlocal",
        "not", "null", "or", "package", "pass", "private", "protected", "public", "raise", "return", "static",
        "super", "switch", "this", "throw", "true", "try", "typeof", "undefined", "var", "void", "while",
        "with", "yield", "arguments", "NaN", "Infinity", "In"
    ]
}
