/// Decodes transitions: `on:` maps, candidate lists, `always:`, `timeout:` and `retry:`.
enum TransitionDecoder {
    static let candidateKeys = ["to", "if", "unless", "in", "notIn", "effects", "retry"]
    static let timeoutKeys = ["after", "to", "effects", "retry"]
    static let retryKeys = ["max", "then", "effects"]

    /// A machine's own `on:`, for each event `event: target`, `event: { to: … }` or
    /// `event: [ {…}, {…} ]`.
    static func machineWideTransitions(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> [EventTransition] {
        // Read into a store of their own, then kept as an array: a machine has one such list.
        var store = TransitionStore()
        swap(&store, &reader.transitionStore)
        let run = eventTransitions(id, of: "machine-wide `on`", reader: &reader)
        swap(&store, &reader.transitionStore)
        return Array(store[run])
    }

    /// `event: target`, `event: { to: … }` or `event: [ {…}, {…} ]`, for each event: appended
    /// to the reader's store as one run.
    static func eventTransitions(
        _ id: YAMLDocument.NodeID, of what: @autoclosure () -> String,
        reader: inout NodeReader
    ) -> TransitionStore.Run {
        guard let children = reader.mappingChildren(id, of: what()) else {
            reader.lostTransitions = true
            return TransitionStore.Run()
        }
        // Read entry by entry, as ``NodeReader/namedEntries(_:of:)`` would, without listing them first.
        let run = reader.transitionStore.startRun(reserving: children.count / 2)
        for index in stride(from: children.startIndex, to: children.endIndex - 1, by: 2) {
            guard let event = reader.entryName(children[index], in: what()) else { continue }
            let name = Located(reader.nameTable.intern(event.value), at: event.location)
            let candidates = candidates(children[index + 1], reader: &reader, mayStay: true)
            reader.transitionStore.append(EventTransition(event: name, candidates: candidates))
        }
        let transitions = reader.transitionStore.endRun(startedAt: run)
        if Int(transitions.count) * 2 != children.count { reader.lostTransitions = true }
        return transitions
    }

    /// A target name, one long-form candidate, or a list of them. Where the flow `mayStay` (an
    /// event's transition), a candidate may leave out `to` and name its effects instead.
    static func candidates(_ id: YAMLDocument.NodeID, reader: inout NodeReader, mayStay: Bool) -> Candidates {
        switch reader.document[id].kind {
        case .scalar, .mapping, .taken:
            guard let candidate = candidate(id, reader: &reader, mayStay: mayStay) else {
                reader.lostTransitions = true
                return []
            }
            return Candidates(candidate)
        case .sequence:
            let items = reader.document.children(of: id)
            if items.isEmpty {
                reader.report(
                    .invalidValue, "the list of candidates is empty; give at least one `{ to: state }`",
                    at: reader.location(id))
            }
            let candidates = items.compactMap { candidate($0, reader: &reader, mayStay: mayStay) }
            if candidates.isEmpty || candidates.count != items.count { reader.lostTransitions = true }
            return Candidates(candidates)
        }
    }

    static func candidate(_ id: YAMLDocument.NodeID, reader: inout NodeReader, mayStay: Bool) -> Candidate? {
        let location = reader.location(id)
        if reader.document[id].kind == .scalar {
            return reader.nameReference(id, as: "a transition's target").map {
                Candidate(location: location, target: $0)
            }
        }
        guard let fields = reader.fields(id, of: "a transition", allowed: candidateKeys) else { return nil }
        var target: Located<Name>?
        if let toNode = fields["to"] {
            guard let written = reader.nameReference(toNode, as: "`to`") else { return nil }
            target = written
        } else if !mayStay {
            reader.missing("to", in: "an `always` branch", at: location, example: "{ to: home }")
            return nil
        } else if fields["effects"] == nil {
            reader.report(
                .invalidValue,
                "a transition is missing the required key 'to' (for example `{ to: home }`); "
                    + "to stay in the state and only run effects, name them: `{ effects: [resend] }`",
                at: location)
            return nil
        } else if fields["retry"] != nil {
            reader.report(
                .invalidValue,
                "a transition without `to` stays where it is, so it has nothing to retry; "
                    + "give it a `to`, or remove `retry`",
                at: location)
            return nil
        }
        var candidate = Candidate(location: location, target: target)
        if let condition = fields["if"] { candidate.condition = reader.name(condition, as: "`if`") }
        if let condition = fields["unless"] { candidate.unlessCondition = reader.name(condition, as: "`unless`") }
        if let state = fields["in"] { candidate.inState = reader.nameReference(state, as: "`in`") }
        if let state = fields["notIn"] { candidate.notInState = reader.nameReference(state, as: "`notIn`") }
        if let effects = fields["effects"] {
            candidate.effects = reader.names(effects, as: "an effect", list: "`effects`")
        }
        if let retry = fields["retry"] {
            candidate.retry = self.retry(retry, reader: &reader)
            if candidate.retry == nil { reader.lostTransitions = true }
        }
        return candidate
    }

    static func timeout(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> Timeout? {
        let location = reader.location(id)
        guard let fields = reader.fields(id, of: "a timeout", allowed: timeoutKeys) else {
            reader.lostTransitions = true
            return nil
        }
        let after: Located<Duration>? = fields["after"].flatMap { reader.duration($0, as: "`after`") }
        if fields["after"] == nil {
            reader.missing("after", in: "the timeout", at: location, example: "{ after: 10s, to: failed }")
        }
        let target: Located<Name>? = fields["to"].flatMap { reader.nameReference($0, as: "the timeout's `to`") }
        if fields["to"] == nil {
            reader.missing("to", in: "the timeout", at: location, example: "{ after: 10s, to: failed }")
        }
        guard let target else {
            reader.lostTransitions = true
            return nil
        }
        var timeout = Timeout(location: location, after: after, target: target)
        if let effects = fields["effects"] {
            timeout.effects = reader.names(effects, as: "an effect", list: "`effects`")
        }
        if let retry = fields["retry"] {
            timeout.retry = self.retry(retry, reader: &reader)
            if timeout.retry == nil { reader.lostTransitions = true }
        }
        return timeout
    }

    /// The largest `max` of a retry: every count up to it is a configuration apart, and an
    /// app retrying automatic work a thousand times in a row is stuck, not retrying.
    static let maxRetries = 1000

    static func retry(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> Retry? {
        let location = reader.location(id)
        guard let fields = reader.fields(id, of: "a retry", allowed: retryKeys) else { return nil }
        var max: Located<Int>? = fields["max"].flatMap { reader.positiveInteger($0, as: "`max`") }
        if let given = max, given.value > maxRetries {
            reader.report(
                .invalidValue,
                "`max` of a retry is at most \(maxRetries), not \(given.value): each count is a configuration the checks and test paths explore",
                at: given.location)
            max = nil
        }
        if fields["max"] == nil {
            reader.missing("max", in: "the retry", at: location, example: "{ max: 3, then: failed }")
        }
        let then: Located<Name>? = fields["then"].flatMap { reader.nameReference($0, as: "`then`") }
        if fields["then"] == nil {
            reader.missing("then", in: "the retry", at: location, example: "{ max: 3, then: failed }")
        }
        guard let then else { return nil }
        var retry = Retry(location: location, max: max, then: then)
        if let effects = fields["effects"] {
            retry.effects = reader.names(effects, as: "an effect", list: "`effects`")
        }
        return retry
    }
}
