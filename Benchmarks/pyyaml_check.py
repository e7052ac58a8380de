#!/usr/bin/env python3
"""What a user might write instead of flowspec: PyYAML's C loader, then reachability and loops.

    pyyaml_check.py SPEC...

For every machine: a breadth-first search from `initial` over every transition (own `on`,
inherited machine-wide `on`, `always`, `timeout`, retry `then`) finds unreachable states,
and an iterative Tarjan search over the `task` and `choice` states, leaving out transitions
bounded by a `retry`, finds loops (strongly connected groups of more than one state, or a
state that loops to itself). The same two checks as flowspec's `unreachable-state` and
`infinite-loop`, without positions, messages or any of the other rules.

Prints one line per machine; exit 1 when a state is unreachable or a loop is found.
Note that PyYAML reads YAML 1.1, where the key `on` is the boolean True.
"""
import sys

import yaml


def candidates(value):
    """(target, bounded) pairs of a transition value: a name, a mapping or a list of them."""
    if value is None:
        return
    if isinstance(value, str):
        yield value, False
        return
    if isinstance(value, dict):
        value = [value]
    for candidate in value:
        if isinstance(candidate, str):
            yield candidate, False
            continue
        retry = candidate.get("retry")
        if "to" in candidate:
            yield candidate["to"], retry is not None
        if isinstance(retry, dict) and "then" in retry:
            yield retry["then"], False


def on_of(mapping):
    # YAML 1.1 (PyYAML) reads the key `on` as True.
    return mapping.get(True, mapping.get("on")) or {}


def check_machine(name, machine):
    states = machine.get("states") or {}
    names = list(states)
    index = {state: i for i, state in enumerate(names)}
    default_kind = (machine.get("defaults") or {}).get("kind", "task")
    kinds = [(body or {}).get("kind", default_kind) for body in states.values()]
    machine_wide = on_of(machine)
    edges = [[] for _ in names]          # every transition
    unbounded = [[] for _ in names]      # transitions not bounded by a retry
    for i, body in enumerate(states.values()):
        body = body or {}
        own = on_of(body)
        transitions = list(own.values())
        if kinds[i] in ("input", "task"):
            transitions += [value for event, value in machine_wide.items() if event not in own]
        if "always" in body:
            transitions.append(body["always"])
        if "timeout" in body:
            transitions.append(body["timeout"])
        for value in transitions:
            for target, bounded in candidates(value):
                j = index.get(target)
                if j is None:
                    continue
                edges[i].append(j)
                if not bounded:
                    unbounded[i].append(j)

    # Reachability: breadth-first from initial.
    seen = [False] * len(names)
    start = index.get(machine.get("initial"))
    queue = [start] if start is not None else []
    if queue:
        seen[start] = True
    for vertex in queue:
        for nxt in edges[vertex]:
            if not seen[nxt]:
                seen[nxt] = True
                queue.append(nxt)
    unreachable = [names[i] for i in range(len(names)) if not seen[i]]

    # Loops: iterative Tarjan over task and choice states.
    member = [kind in ("task", "choice") for kind in kinds]
    order = [-1] * len(names)
    low = [0] * len(names)
    on_stack = [False] * len(names)
    stack = []
    loops = []
    counter = 0
    for root in range(len(names)):
        if not member[root] or order[root] != -1:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, 0)]
        while work:
            vertex, k = work[-1]
            successors = unbounded[vertex]
            if k < len(successors):
                work[-1] = (vertex, k + 1)
                nxt = successors[k]
                if not member[nxt]:
                    continue
                if order[nxt] == -1:
                    order[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack[nxt] = True
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[vertex] = min(low[vertex], order[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[vertex])
            if low[vertex] == order[vertex]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    group.append(w)
                    if w == vertex:
                        break
                if len(group) > 1 or vertex in unbounded[vertex]:
                    loops.append(group)
    print("%s: %d states, %d unreachable, %d loops (largest %d states)"
          % (name, len(names), len(unreachable), len(loops), max((len(g) for g in loops), default=0)))
    return not unreachable and not loops


def main(paths):
    ok = True
    for path in paths:
        with open(path, "rb") as f:
            document = yaml.load(f, Loader=yaml.CLoader)
        for name, machine in (document.get("machines") or {}).items():
            ok = check_machine(name, machine) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
