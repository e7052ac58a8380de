"""Runs SCXML documents in python-statemachine, an SCXML engine flowspec did not write: those
`flowspec export --format scxml --datamodel python` wrote, for the export's engine tests, and
documents others wrote, beside the export of their import (ImportOthersTests).

Reads a JSON list of runs from the file named by its argument. Each run is {"key", "scxml",
"steps"}; a step is ["event", NAME], ["condition", NAME, true|false] (a condition of the spec,
set in the datamodel; those before the first input are its values at the start, as the app
supplies them at launch), ["timeout", STATE] (the timer that STATE's timeout armed fires
now; with null for STATE, the first active state's own, as `simulate`'s `@timeout`) or
["wait", SECONDS] (time passes, and each delayed event falls due when it is due).
Prints one line per input:

    KEY|INPUT -> STATES | effects: E1, E2 | timers: STATE, STATE

STATES are the active states the spec can be in (those with a `flowspec:kind`; in a document
without any, its atomic states), in document order, by their spec names (else their ids);
effects are the `<log label="effect">` lines the step printed; timers are the states whose
timeout's delayed `<send>` is pending, in document order.

Time is the engine's own, made virtual: its clock stands still but for a wait, so a delayed
`<send>` waits in the engine's queue until the run fires it or waits long enough (the engine
would otherwise sleep until it is due). Everything else, the `<send>` and `<cancel>` of
timers included, is the engine's own work.
"""

import contextlib
import heapq
import io
import json
import re
import sys
import xml.etree.ElementTree as ET

import statemachine.engines.base as engine_base
import statemachine.engines.sync as sync_engine
import statemachine.event_data as event_data
from statemachine.io import load
from statemachine.orderedset import OrderedSet

SCXML = "{http://www.w3.org/2005/07/scxml}"
FLOWSPEC = "{urn:flowspec:scxml}"


_take_due_external_event = sync_engine.SyncEngine._take_due_external_event


def _take_only_what_is_due(engine, first_result):
    """The engine's own step, except that it stops where it would sleep until a delayed
    event is due: the run decides when a timer fires."""
    queue = engine.external_queue.queue
    with queue.mutex:
        due = any(not trigger.cancelled and trigger.execution_time <= now[0] for trigger in queue.queue)
    if not due:
        return False, first_result
    return _take_due_external_event(engine, first_result)


_put = engine_base.EventQueue.put
errors = []


def _put_noting_errors(queue, trigger):
    """The engine's own, noting the errors it raises (a document it cannot run)."""
    if str(trigger.event).startswith("error."):
        errors.append(str(trigger.event))
    return _put(queue, trigger)


engine_base.EventQueue.put = _put_noting_errors


# Three places where python-statemachine 3.2.2 departs from the W3C algorithm, corrected here
# so that the engine runs SCXML's semantics (SCXMLExportTests.theEngineDepartsFromTheW3CAlgorithm
# shows each, run with `--as-is`, and fails once a release fixes it):
#  - it splits an `event` attribute at single spaces, so a list broken over lines gains an empty
#    descriptor, which matches every event (corrected in `Document`, which writes each list
#    with single spaces);
#  - it numbers `document_order` level by level, so states leave in the wrong order when a
#    step leaves several regions (W3C: exitOrder, reverse document order);
#  - it selects transitions in the order states were entered, not in document order (its own
#    "TODO: sorted by document order" in `_select_transitions`).
def _select_in_document_order(engine, trigger_data, predicate):
    enabled = OrderedSet()
    atomic = sorted((s for s in engine.sm.configuration if s.is_atomic), key=lambda s: s.document_order)
    for state in atomic:
        transition = engine._first_transition_that_matches(state, trigger_data, predicate)
        if transition is not None:
            enabled.add(transition)
    return engine._filter_conflicting_transitions(enabled)


def number_in_document_order(machine_class):
    order = 0

    def visit(states):
        nonlocal order
        for state in states:
            order += 1
            state.document_order = order
            visit(state.states)

    visit([state for state in machine_class.states if state.parent is None])


AS_IS = "--as-is" in sys.argv
if not AS_IS:
    sync_engine.SyncEngine._select_transitions = _select_in_document_order
now = [0.0]
sync_engine.monotonic = lambda: now[0]
event_data.monotonic = lambda: now[0]
sync_engine.SyncEngine._take_due_external_event = _take_only_what_is_due


class Document:
    """What the run needs to know of a document: spec names, leaves, timers, conditions.

    python-statemachine makes each state an attribute of its parent, so a state whose id is
    one of its own attributes (`initial`, `final`, `name`, ...) cannot be loaded: the states
    are renamed `s0`, `s1`, ... in `text`, everywhere an id is used (ids, `initial`, targets,
    `done.state.ID` events and `In('ID')` conditions), which changes nothing of what the
    document means."""

    def __init__(self, text, starting):
        root = ET.fromstring(text)
        self.wrap(root)
        for data in root.iter(SCXML + "data"):
            name = data.get(FLOWSPEC + "name", data.get("id"))
            if name in starting:
                data.set("expr", "True" if starting[name] else "False")
        renamed = {}
        for element in root.iter():
            if element.tag.replace(SCXML, "") in ("state", "final", "parallel", "history") and element.get("id"):
                renamed[element.get("id")] = "s%d" % len(renamed)
                if element.get(FLOWSPEC + "name") is None:
                    element.set(FLOWSPEC + "name", element.get("id"))
        for element in root.iter():
            for attribute in ("id", "initial", "target"):
                if element.get(attribute) is not None and element.tag.replace(SCXML, "") != "send":
                    element.set(attribute, " ".join(renamed.get(i, i) for i in element.get(attribute).split()))
            event = element.get("event")
            if event is not None and not AS_IS:
                event = " ".join(event.split())
                element.set("event", event)
            if event is not None and event.startswith("done.state.") and element.tag == SCXML + "transition":
                element.set("event", "done.state." + renamed[event[len("done.state."):]])
            if element.get("cond") is not None:
                element.set("cond", re.sub(r"In\('([^']*)'\)", lambda m: "In('%s')" % renamed[m.group(1)], element.get("cond")))
        ET.register_namespace("", SCXML[1:-1])
        ET.register_namespace("flowspec", FLOWSPEC[1:-1])
        self.text = ET.tostring(root, encoding="unicode")
        foreign = not any(element.get(FLOWSPEC + "kind") for element in root.iter())
        self.names = {}
        self.leaves = []
        self.timer_of = {}
        self.variables = {}
        for element in root.iter():
            ident = element.get("id")
            tag = element.tag.replace(SCXML, "")
            if tag == "data":
                self.variables[element.get(FLOWSPEC + "name", ident)] = ident
            if tag not in ("state", "final", "parallel") or ident is None:
                continue
            name = element.get(FLOWSPEC + "name", ident)
            self.names[ident] = name
            if element.get(FLOWSPEC + "kind") is not None or (foreign and is_atomic(element)):
                self.leaves.append(ident)
            for onentry in element.findall(SCXML + "onentry"):
                for send in onentry.findall(SCXML + "send"):
                    self.timer_of[name] = send.get("id")
        self.order = {ident: index for index, ident in enumerate(self.names)}
        self.state_of_timer = {timer: state for state, timer in self.timer_of.items()}


    @staticmethod
    def wrap(root):
        """Puts the document's states inside one state. python-statemachine runs a top-level
        `<datamodel>` as it enters the first state of the document, not as the document starts
        (SCXML's early binding), so an `<assign>` on entering another state first would fail:
        inside one state, its entry comes first. The state changes nothing else."""
        wrapper = ET.Element(SCXML + "state", {"id": "flowspec_document"})
        if root.get("initial") is not None:
            wrapper.set("initial", root.get("initial"))
            del root.attrib["initial"]
        for child in list(root):
            if child.tag != SCXML + "datamodel":
                root.remove(child)
                wrapper.append(child)
        root.append(wrapper)


def is_atomic(element):
    return not any(child.tag in (SCXML + "state", SCXML + "parallel", SCXML + "final") for child in element)


def pending_timers(machine, document):
    queue = machine._engine.external_queue.queue
    with queue.mutex:
        ids = {trigger.send_id for trigger in queue.queue if not trigger.cancelled and trigger.send_id}
    states = [document.state_of_timer[ident] for ident in ids if ident in document.state_of_timer]
    return sorted(states, key=lambda name: document.order[[i for i, n in document.names.items() if n == name][0]])


def fire(machine, send_id):
    """Makes the pending delayed event `send_id` due now, and lets the engine take it."""
    queue = machine._engine.external_queue.queue
    with queue.mutex:
        due = [t for t in queue.queue if t.send_id == send_id and not t.cancelled]
        for trigger in due:
            trigger.execution_time = -1.0
        heapq.heapify(queue.queue)
    if not due:
        return False
    machine._engine.processing_loop()
    return True


def wait(machine, seconds):
    """Lets `seconds` pass on the run's clock: each delayed event falls due at its own time,
    in the order they are due, and the engine takes it before the next falls due."""
    until = now[0] + seconds
    queue = machine._engine.external_queue.queue
    while True:
        with queue.mutex:
            pending = [t.execution_time for t in queue.queue if not t.cancelled and t.execution_time <= until]
        if not pending:
            break
        now[0] = max(now[0], min(pending))
        machine._engine.processing_loop()
    now[0] = until


def run(spec, out):
    steps = list(spec["steps"])
    starting = {}
    while steps and steps[0][0] == "condition":
        _, name, value = steps.pop(0)
        starting[name] = value
    now[0] = 0.0
    document = Document(spec["scxml"], starting)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        machine_class = load(document.text, format="scxml")
        if not AS_IS:
            number_in_document_order(machine_class)
        machine = machine_class(allow_event_without_transition=True)

    def active_leaves():
        return sorted(
            (state.id for state in machine.configuration if state.id in document.leaves),
            key=document.order.get,
        )

    def line(label):
        effects = re.findall(r"^effect: '(.*)'$", printed.getvalue(), re.MULTILINE)
        printed.seek(0)
        printed.truncate()
        states = ", ".join(document.names[ident] for ident in active_leaves())
        timers = ", ".join(pending_timers(machine, document)) or "-"
        out.append(
            "%s|%s -> %s | effects: %s | timers: %s%s"
            % (spec["key"], label, states, ", ".join(effects) or "-", timers, " | " + ", ".join(errors) if errors else "")
        )
        errors.clear()

    def settle():
        # When the conditions changed since the last input, the eventless transitions they
        # enable are taken first (the engine takes them when an event comes;
        # `flowspec_conditions` is one no transition takes); a timer of a state they leave was
        # cancelled on leaving it, as flowspec's timer of a visit that is over does nothing.
        machine.send("flowspec_conditions")

    line("start")
    for step in steps:
        if step[0] == "condition":
            setattr(machine.model, document.variables[step[1]], bool(step[2]))
            continue
        with contextlib.redirect_stdout(printed):
            if step[0] == "timeout" and step[1] is None:
                first = next(iter(active_leaves()), None)
                settle()
                fire(machine, document.timer_of.get(document.names.get(first)))
                line("@timeout")
            elif step[0] == "conditions":
                # No transition takes it: the eventless transitions enabled after it are taken.
                machine.send("flowspec_conditions")
                line("@conditions")
            elif step[0] == "wait":
                wait(machine, step[1])
                line("@wait(%g)" % step[1])
            elif step[0] == "timeout":
                settle()
                fire(machine, document.timer_of.get(step[1]))
                line("@timeout(%s)" % step[1])
            else:
                machine.send(step[1])
                line(step[1])


def main():
    out = []
    arguments = [argument for argument in sys.argv[1:] if argument != "--as-is"]
    with open(arguments[0], encoding="utf-8") as runs:
        for spec in json.load(runs):
            if len(arguments) < 2 or spec["key"].startswith(arguments[1]):
                run(spec, out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
