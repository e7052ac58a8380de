"""Runs flowspec machines, written as SCXML, in python-statemachine: an engine flowspec did not
write, for EngineDifferentialTests. Reads a JSON list of runs from the file named by its
argument and prints one line per input, `KEY|INPUT -> STATE | effects: E1, E2` (or
`effects: -`), as `flowspec simulate` prints it without its timeout and `(ignored)` parts.

Each run is {"key", "scxml", "states": [names by index], "steps": [...]}; with "leaves"
instead (a nested flowspec machine), STATE is the active state among those names; with
neither (a statechart), STATE is every active state's id, sorted, joined by commas. A step is
["event", NAME], ["timeout"], ["condition", INDEX, true|false], ["conditions"] (the app says
its conditions changed: the event `flowspec_conditions`, which no transition takes), or, for a
nested machine,
["stateTimeout"] (the current state's timeout: the event `timeout_ID`) or
["compoundTimeout", NAME] (the event `timeout_NAME`, sent only while NAME is active). The
documents come from the test's own SCXML writer: effects are appended to the datamodel list
`fs_trace`, the machine's timeout is the event `flowspec_timeout`, and condition INDEX is
`fs_cINDEX`.
"""

import json
import sys

from statemachine.io import load


def state_name(machine, names, leaves=None):
    if leaves is not None:
        return ",".join(sorted(state.id for state in machine.configuration if state.id in leaves))
    if names is None:
        # A statechart: every active state's id, sorted.
        return ",".join(sorted(state.id for state in machine.configuration))
    # Flat machines: one active state, whose id is `s` and its index.
    (state,) = list(machine.configuration)
    return names[int(state.id[1:])]


def run(spec, out):
    machine = load(spec["scxml"], format="scxml")()
    names = spec.get("states")
    leaves = set(spec["leaves"]) if "leaves" in spec else None
    seen = 0

    def line(label):
        nonlocal seen
        trace = list(machine.model.fs_trace)
        effects = ", ".join(trace[seen:]) or "-"
        seen = len(trace)
        out.append("%s|%s -> %s | effects: %s" % (spec["key"], label, state_name(machine, names, leaves), effects))

    def settle():
        # A timer fires for the visit it was armed in: when the conditions changed since the
        # last input, the eventless transitions they enable are taken first (the engine takes
        # them when `send` begins; `flowspec_conditions` is an event no transition takes), and
        # a timer of a state they leave does nothing.
        machine.send("flowspec_conditions")

    def active(ident):
        return any(state.id == ident for state in machine.configuration)

    line("start")
    for step in spec["steps"]:
        if step[0] == "condition":
            setattr(machine.model, "fs_c%d" % step[1], bool(step[2]))
        elif step[0] == "timeout":
            # Every state's timeout is this one event: sent only while the state is the same.
            before = state_name(machine, names, leaves)
            settle()
            if state_name(machine, names, leaves) == before:
                machine.send("flowspec_timeout")
            line("@timeout")
        elif step[0] == "conditions":
            # No transition takes it: the eventless transitions enabled after it are taken.
            machine.send("flowspec_conditions")
            line("@conditions")
        elif step[0] == "stateTimeout":
            before = state_name(machine, names, leaves)
            settle()
            if active(before):
                machine.send("timeout_" + before)
            line("@timeout")
        elif step[0] == "compoundTimeout":
            settle()
            if active(step[1]):
                machine.send("timeout_" + step[1])
            line("@timeout(%s)" % step[1])
        else:
            machine.send(step[1])
            line(step[1])


def main():
    out = []
    with open(sys.argv[1], encoding="utf-8") as runs:
        for spec in json.load(runs):
            run(spec, out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
