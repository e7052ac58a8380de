#!/usr/bin/env python3
"""The measurements of the flowspec benchmark. Run it through Benchmarks/run.sh, which builds
flowspec (release) and the libyaml floor first, then calls:

    bench.py --flowspec PATH --floor PATH --work DIR [--quick]

Every CPU time and peak memory figure comes from `/usr/bin/time -f '%e %U %S %M'` (wall,
user, system, peak RSS); CPU is user + system. Each figure is the median of several runs,
and every ratio is against a baseline measured in the same run, because the machine is
noisy. Runs shorter than about 0.3 s are batched (k runs under one /usr/bin/time, divided
by k) so that its 10 ms resolution does not swamp them.
"""
import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Targets. check is judged against the libyaml event loop by instructions (callgrind), which the
# machine's load does not move; its CPU ratio to the loop is shown beside it, informative.
TARGET_CHECK_INSTRUCTIONS = 2.0  # check instructions ÷ libyaml event loop instructions
TARGET_RSS_PER_BYTE = 4.0       # check peak RSS ÷ file size, judged from 5 MB up
RSS_JUDGED_FROM = 5e6
TARGET_SCALING = 6.0            # check CPU at 50 MB ÷ at 10 MB
TARGET_APP_MS = 20.0            # median wall of `check specs/app.yaml`, process start included, in ms
TARGET_COMPILE_SECONDS = 2.0    # swiftc -O CPU seconds of each generated file
TARGET_DISPATCH_NS = 4.0        # Machine.send at 5,000 states, ns/event
# Generated code that is only the spec, against what `flowspec gen` wrote for specs/app.yaml
# before the runtime library held the semantics (Benchmarks/baselines/app-before-runtime.swift.txt,
# compiled side by side): at most a third of the lines and half the `swiftc -O` time.
TARGET_APP_LINES_RATIO = 1 / 3
TARGET_APP_COMPILE_RATIO = 1 / 2
TARGET_LINEAR = 12.0            # check CPU at N ÷ at N/10 for the chain, the loop and the finding shapes
TARGET_SOURCE_IMPORT = 1.25     # import of an XState config as JavaScript ÷ the same config as JSON
# Nested machines (compound states): `send` on 5,000 states four deep ÷ on the same machine
# written flat (gen_specs.py flattened), side by side; `check` of a 1 MB nested spec against
# the libyaml loop, by instructions (TARGET_CHECK_INSTRUCTIONS); the generated code of a nested
# app of realistic size (Benchmarks/nested-app.yaml) ÷ the code before the runtime, side by
# side; and no allocation in `send`.
TARGET_NESTED_DISPATCH = 1.5
# History states: `send` on the nested machine whose zones each hold a deep history state, a
# tenth of the random targets resuming their zone (gen_specs.py nestedhistory) ÷ `send` on the
# same nested machine without them, side by side; and no allocation in `send` there either.
TARGET_HISTORY_DISPATCH = 1.5
TARGET_NESTED_APP_COMPILE = 1.0
# Parallel regions: `send` on a parallel state of 3 regions, an event moving one of them
# (gen_specs.py parallel: 90 states in the `switch` form; 3,000 in the table form, whose compile
# time has the generated files' target), allocates nothing; its time is informative.
PARALLEL_STATES = 90
PARALLEL_TABLE_STATES = 3000
# Test paths of 3 regions of 50 states whose timers run at once (gen_specs.py regions): every
# combination of the time left on them is a configuration; planned or refused (at the
# configuration limit) within a second.
TARGET_REGIONS_PATHS_SECONDS = 1.0
NESTED_STATES = 5000            # the nested machine of the dispatch and compile rows (20 events)
NESTED_FLOW_STATES = 3700       # about 1 MB of nested flow spec (Benchmarks/gen_specs.py nestedflow)


# ---------------------------------------------------------------------------------------
# Running and timing


class Sample:
    def __init__(self, wall, user, system, rss_kb, status):
        self.wall, self.user, self.system, self.rss_kb, self.status = wall, user, system, rss_kb, status

    @property
    def cpu(self):
        return self.user + self.system


def time_once(argv, batch=1, cwd=ROOT):
    """One /usr/bin/time measurement of `argv` (run `batch` times in a row); output discarded."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        command = argv
        if batch > 1:
            loop = 'i=0; while [ $i -lt %d ]; do "$@" >/dev/null 2>&1; i=$((i+1)); done' % batch
            command = ["sh", "-c", loop, "sh"] + argv
        with open(os.devnull, "w") as null:
            result = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", out.name] + command,
                                    stdout=null, stderr=null, cwd=cwd)
        lines = [line for line in out.read().splitlines() if line.strip()]
    wall, user, system, rss = lines[-1].split()
    return Sample(float(wall) / batch, float(user) / batch, float(system) / batch, int(rss), result.returncode)


def measure(argv, reps, expect=(0,), min_seconds=0.3):
    """Median wall, CPU and peak RSS of `reps` runs. Short commands are batched."""
    return measure_side_by_side([argv], reps, [expect], min_seconds)[0]


def measure_side_by_side(argvs, reps, expects=None, min_seconds=0.3):
    """`measure` of several commands whose figures are compared, their samples taken in
    turn (a, b, a, b, …) rather than one command's after the other's, so that the machine
    slowing down or speeding up meanwhile moves both alike."""
    expects = expects or [(0,)] * len(argvs)
    batches, samples, statuses = [], [], []
    for argv, expect in zip(argvs, expects):
        first = time_once(argv)
        if first.status not in expect:
            raise SystemExit("bench: %s exited with %d (expected %s)" % (" ".join(argv), first.status, expect))
        batch = 1
        if first.cpu < min_seconds and first.wall < min_seconds:
            batch = min(50, max(2, math.ceil(min_seconds / max(first.wall, 0.005))))
        batches.append(batch)
        samples.append([first] if batch == 1 else [])
        statuses.append(first.status)
    while any(len(taken) < reps for taken in samples):
        for argv, batch, taken in zip(argvs, batches, samples):
            if len(taken) < reps:
                taken.append(time_once(argv, batch))
    return [{
        "wall": statistics.median(s.wall for s in taken),
        "cpu": statistics.median(s.cpu for s in taken),
        "rss": max(s.rss_kb for s in taken) * 1024,
        "status": status,
        "runs": len(taken) * batch,
    } for taken, batch, status in zip(samples, batches, statuses)]


def spawn_wall(argv):
    """Wall time of one run, process start included, to the microsecond."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        os.waitpid(pid, 0)
        return time.perf_counter() - start
    finally:
        os.close(null)


def run(argv, **kwargs):
    result = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        sys.stdout.write(result.stdout)
        raise SystemExit("bench: failed: %s" % " ".join(shlex.quote(a) for a in argv))
    return result.stdout


# ---------------------------------------------------------------------------------------
# Report


class Report:
    def __init__(self):
        self.rows = []
        self.met = 0
        self.missed = 0

    def section(self, title):
        self.rows.append(("section", title))
        print("  … %s" % title, file=sys.stderr, flush=True)

    def row(self, what, figure, baseline="", ratio="", target="", met=None):
        verdict = "" if met is None else ("met" if met else "NOT MET")
        if met is True:
            self.met += 1
        elif met is False:
            self.missed += 1
        self.rows.append(("row", (what, figure, baseline, ratio, target, verdict)))

    def print(self, header):
        widths = [0] * 6
        titles = ("measurement", "figure", "baseline (same run)", "ratio", "target", "")
        rows = [r for kind, r in self.rows if kind == "row"] + [titles]
        for r in rows:
            for i, cell in enumerate(r):
                widths[i] = max(widths[i], len(cell))

        def line(cells):
            return "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip()

        print(header)
        print()
        print(line(titles))
        print(line(["-" * w for w in widths[:5]] + ["-------"]))
        for kind, r in self.rows:
            if kind == "section":
                print("[%s]" % r)
            else:
                print(line(r))
        print()
        print("targets: %d met, %d NOT MET" % (self.met, self.missed))


def seconds(value):
    return "%.3f s" % value if value < 10 else "%.1f s" % value


def ms(value):
    return "%.2f ms" % (value * 1000)


def megabytes(n):
    return "%.1f MB" % (n / 1e6)


def times(value):
    return "%.2f×" % value


# ---------------------------------------------------------------------------------------
# Inputs


def generator_digest():
    with open(os.path.join(HERE, "gen_specs.py"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:10]


def make_input(work, kind, states, events=None):
    folder = os.path.join(work, "inputs-" + generator_digest())
    os.makedirs(folder, exist_ok=True)
    name = "%s-%d%s.yaml" % (kind, states, "x%d" % events if events else "")
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        argv = [sys.executable, os.path.join(HERE, "gen_specs.py"), kind, "--states", str(states)]
        if events:
            argv += ["--events", str(events)]
        run(argv + [path + ".tmp"])
        os.replace(path + ".tmp", path)
    return path


# ---------------------------------------------------------------------------------------
# Measurements


def bench_read(report, args, flows, reps):
    """check vs the libyaml floor: CPU, memory, scaling; returns the check figures by size."""
    report.section("flowspec check on flow specs vs libyaml's bare event loop (CPU = user + sys, median)")
    figures = {}
    # Every size's floor and check in turn, so that the scaling row compares sizes measured
    # side by side too.
    argvs = [argv for _, path in flows for argv in ([args.floor, path], [args.flowspec, "check", path])]
    results = measure_side_by_side(argvs, reps)
    for index, (states, path) in enumerate(flows):
        size = os.path.getsize(path)
        label = "%s (%s states)" % (megabytes(size), format(states, ","))
        floor, check = results[2 * index], results[2 * index + 1]
        figures[states] = (size, check, floor)
        ratio = check["cpu"] / max(floor["cpu"], 1e-9)
        report.row("check CPU, %s" % label, seconds(check["cpu"]), "libyaml loop %s" % seconds(floor["cpu"]),
                   times(ratio), "", None)
    bench_instructions(report, args, flows[0])
    report.section("peak memory (max RSS) vs file size")
    for states, path in flows:
        size, check, floor = figures[states]
        ratio = check["rss"] / size
        judged = size >= RSS_JUDGED_FROM  # below that, the runtime's fixed ~20 MB dominates
        report.row("check peak RSS, %s" % megabytes(size), megabytes(check["rss"]),
                   "file %s; libyaml loop %s" % (megabytes(size), megabytes(floor["rss"])),
                   "%s file" % times(ratio), "≤ %.1f× file" % TARGET_RSS_PER_BYTE if judged else "",
                   ratio <= TARGET_RSS_PER_BYTE if judged else None)
    report.section("scaling: biggest vs middle size")
    (mid_states, _), (big_states, _) = flows[-2], flows[-1]
    mid_size, mid_check, mid_floor = figures[mid_states]
    big_size, big_check, big_floor = figures[big_states]
    size_ratio = big_size / mid_size
    allowed = TARGET_SCALING
    ratio = big_check["cpu"] / mid_check["cpu"]
    report.row("check CPU %s ÷ %s" % (megabytes(big_size), megabytes(mid_size)), times(ratio),
               "bytes %s; libyaml loop %s" % (times(size_ratio), times(big_floor["cpu"] / max(mid_floor["cpu"], 1e-9))),
               "", "≤ %.2f×" % allowed, ratio <= allowed)
    return figures


def instructions(argv, within=None):
    """The instructions `argv` executes (with `within`, a function name pattern, those run inside
    such functions), counted by callgrind (the same on every run, whatever the machine's load);
    None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    collect = ["--toggle-collect=" + within] if within else []
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(work, "out")]
                                + collect + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                cwd=ROOT)
    found = re.search(r"Collected : (\d+)", result.stderr)
    return int(found.group(1)) if found else None


def bench_instructions(report, args, flow):
    """check vs the floor in instructions, on the smallest flow spec: a ratio free of the
    machine's noise, and the target that the CPU rows beside it only illustrate."""
    _, path = flow
    label = "check instructions, %s (callgrind)" % megabytes(os.path.getsize(path))
    check, floor = instructions([args.flowspec, "check", path]), instructions([args.floor, path])
    if check is None or floor is None:
        report.row(label, "valgrind not installed", "", "", "", None)
        return
    ratio = check / floor
    report.row(label, "%.1fM" % (check / 1e6), "libyaml loop %.1fM" % (floor / 1e6), times(ratio),
               "≤ %.1f×" % TARGET_CHECK_INSTRUCTIONS, ratio <= TARGET_CHECK_INSTRUCTIONS)


def bench_app(report, args, runs):
    report.section("flowspec check specs/app.yaml: wall time, process start included (median of %d runs)" % runs)
    app = [args.flowspec, "check", os.path.join(ROOT, "specs", "app.yaml")]
    version = [args.flowspec, "--version"]
    true = ["/bin/true"]
    for argv in (app, version, true):
        spawn_wall(argv)  # warm the page cache
    walls = {"app": [], "version": [], "true": []}
    for _ in range(runs):  # interleaved, so that noise hits all three alike
        walls["app"].append(spawn_wall(app))
        walls["version"].append(spawn_wall(version))
        walls["true"].append(spawn_wall(true))
    app_ms, version_ms, true_ms = (statistics.median(walls[k]) for k in ("app", "version", "true"))
    above = app_ms - true_ms
    report.row("check specs/app.yaml, median wall", ms(app_ms), "/bin/true %s" % ms(true_ms),
               times(app_ms / true_ms), "≤ %.0f ms" % TARGET_APP_MS, app_ms * 1000 <= TARGET_APP_MS)
    report.row("  the same, above /bin/true", ms(above), "", "", "", None)
    report.row("  of which Swift process start", ms(version_ms - true_ms),
               "`flowspec --version` %s" % ms(version_ms), "", "", None)
    # What a run costs before reading anything: the Swift runtime and the libraries it loads
    # (Foundation, whole or in part, would add megabytes and milliseconds; `check` needs none
    # of it, and the row says which the binary loads).
    libraries = subprocess.run(["ldd", args.flowspec], capture_output=True, text=True).stdout
    if "libFoundation.so" in libraries:
        foundation = "all of Foundation + ICU"
    elif "libFoundationEssentials.so" in libraries:
        foundation = "FoundationEssentials"
    else:
        foundation = "Swift runtime, no Foundation"
    report.row("  peak RSS of `flowspec --version`", "%.1f MB" % (time_once(version).rss_kb / 1024), foundation,
               "", "", None)


def bench_many_machines(report, args, states, reps):
    """One `check` of a spec of many two-state machines (informative): what a machine costs
    beside its states, against the libyaml loop over the same file."""
    report.section("one check of %s machines of two states (informative)" % format(states // 2, ","))
    path = make_input(args.work, "machines", states)
    size = os.path.getsize(path)
    floor, check = measure_side_by_side([[args.floor, path], [args.flowspec, "check", path]], reps)
    report.row("check CPU, %s machines, %s" % (format(states // 2, ","), megabytes(size)), seconds(check["cpu"]),
               "libyaml loop %s" % seconds(floor["cpu"]), times(check["cpu"] / max(floor["cpu"], 1e-9)), "", None)
    report.row("check peak RSS, %s machines" % format(states // 2, ","), megabytes(check["rss"]),
               "file %s; libyaml loop %s" % (megabytes(size), megabytes(floor["rss"])),
               "%s file" % times(check["rss"] / size), "", None)


def composed_states(machines):
    """The states of every machine of `gen_specs.py runs`, once composed: each machine's ten
    and a copy of each machine below it in the tree."""
    sizes = [0] * machines
    for m in reversed(range(machines)):
        sizes[m] = 10 + sum(sizes[c] for c in (2 * m + 1, 2 * m + 2) if c < machines)
    return sum(sizes)


def bench_runs(report, args, sizes, reps):
    """`check` of machines that run one another as sub-flows, as a binary tree. Each machine is
    checked as composed, holding a copy of every machine below it: the target is time linear
    in the states composed (n log n of the machines here), which grow a little faster than
    the file."""
    report.section("check of machines that run one another (sub-flows)")
    small, big = sizes
    paths = [make_input(args.work, "runs", states) for states in (small, big)]
    s_result, b_result = measure_side_by_side([[args.flowspec, "check", path] for path in paths], reps)
    for states, result in ((small, s_result), (big, b_result)):
        report.row("check, %d machines running one another" % (states // 10), seconds(result["cpu"]),
                   "%s states composed" % format(composed_states(states // 10), ","), "", "", None)
    ratio = b_result["cpu"] / s_result["cpu"]
    composed = composed_states(big // 10) / composed_states(small // 10)
    report.row("  %d ÷ %d machines" % (big // 10, small // 10), times(ratio),
               "states composed %s, file %s" % (times(composed), times(big / small)), "",
               "≤ %.1f× (linear)" % (composed * 1.2), ratio <= composed * 1.2)


def bench_many_files(report, args, count, reps):
    """One `check` of many small specs, as a CI gate over a repository runs it (informative):
    a file's model is freed once checked, so memory stays near one file's."""
    report.section("one check of %s copies of specs/app.yaml (informative)" % format(count, ","))
    folder = os.path.join(args.work, "many-files")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(ROOT, "specs", "app.yaml"), "rb") as f:
        text = f.read()
    paths = []
    for index in range(count):
        path = os.path.join(folder, "app-%05d.yaml" % index)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(text)
        paths.append(path)
    one, many = measure_side_by_side([[args.flowspec, "check", paths[0]], [args.flowspec, "check"] + paths], reps)
    report.row("check of %s files" % format(count, ","),
               "%s (%.0f µs a file), %s peak" % (seconds(many["cpu"]), many["cpu"] / count * 1e6, megabytes(many["rss"])),
               "one file %s, %s" % (seconds(one["cpu"]), megabytes(one["rss"])),
               "%s memory" % times(many["rss"] / one["rss"]), "", None)


def build_runtime(work):
    """FlowSpecRuntime, which generated code imports, and the kernel it re-exports, built once
    with -O as static libraries and their modules; returns the directory for -I and -L."""
    directory = os.path.join(work, "runtime")
    os.makedirs(directory, exist_ok=True)
    for module in ["FlowSpecKernel", "FlowSpecRuntime"]:
        sources_dir = os.path.join(ROOT, "Sources", module)
        sources = sorted(os.path.join(sources_dir, f) for f in os.listdir(sources_dir) if f.endswith(".swift"))
        run(["swiftc", "-O", "-parse-as-library", "-swift-version", "6", "-module-name", module, "-I", directory,
             "-emit-module", "-emit-module-path", os.path.join(directory, module + ".swiftmodule"),
             "-emit-library", "-static", "-o", os.path.join(directory, "lib%s.a" % module)] + sources)
    return directory


def linking(runtime):
    """The swiftc arguments that compile generated code against the runtime in `runtime`."""
    return ["-I", runtime, "-L", runtime, "-lFlowSpecRuntime", "-lFlowSpecKernel"]


def bench_codegen(report, args, shapes, reps, dispatch_shapes, dispatch_events):
    """The generated code's compile time and dispatch; returns what the nested machines' rows
    compare with (`bench_nested`): the runtime's folder, the code before the runtime, the
    50 × 20 compile figure and the flat 5,000 × 20 dispatch binary."""
    work = os.path.join(args.work, "codegen")
    os.makedirs(work, exist_ok=True)
    report.section("generated Swift: `swiftc -O` CPU of the `flowspec gen` output (median of %d)" % reps)
    empty = os.path.join(work, "Empty.swift")
    with open(empty, "w") as f:
        f.write("struct Empty {}\n")
    runtime = build_runtime(work)

    def compile_argv(source):
        return ["swiftc", "-O", "-parse-as-library", "-I", runtime, "-c", source, "-o", source[:-6] + ".o"]

    floor = measure(compile_argv(empty), reps, min_seconds=0)
    app = os.path.join(work, "App.swift")
    run([args.flowspec, "gen", os.path.join(ROOT, "specs", "app.yaml"), "--output", app])
    before = os.path.join(work, "AppBeforeRuntime.swift")
    shutil.copyfile(os.path.join(HERE, "baselines", "app-before-runtime.swift.txt"), before)

    def line_count(path):
        with open(path) as f:
            return sum(1 for _ in f)

    lines, lines_before = line_count(app), line_count(before)
    report.row("generated specs/app.yaml, lines", format(lines, ","), "before the runtime %s" % format(lines_before, ","),
               times(lines / lines_before), "≤ %.2f×" % TARGET_APP_LINES_RATIO,
               lines <= lines_before * TARGET_APP_LINES_RATIO)
    compiled, compiled_before = measure_side_by_side([compile_argv(app), compile_argv(before)], reps, min_seconds=0)
    ratio = compiled["cpu"] / compiled_before["cpu"]
    report.row("swiftc -O, generated specs/app.yaml",
               "%s (wall %s)" % (seconds(compiled["cpu"]), seconds(compiled["wall"])),
               "before the runtime %s; empty file %s" % (seconds(compiled_before["cpu"]), seconds(floor["cpu"])),
               times(ratio), "≤ %.2f×" % TARGET_APP_COMPILE_RATIO, ratio <= TARGET_APP_COMPILE_RATIO)
    sources = {}
    for states, events in shapes:
        spec = make_input(args.work, "reducer", states, events)
        source = os.path.join(work, "Big-%dx%d.swift" % (states, events))
        run([args.flowspec, "gen", spec, "--output", source])
        sources[(states, events)] = source
    base = None
    for states, events in shapes:
        source = sources[(states, events)]
        result = measure(compile_argv(source), reps, min_seconds=0)
        label = "%s states × %d events" % (format(states, ","), events)
        if base is None:
            base = result
            report.row("swiftc -O, %s" % label, "%s (wall %s)" % (seconds(result["cpu"]), seconds(result["wall"])),
                       "empty file %s" % seconds(floor["cpu"]), times(result["cpu"] / floor["cpu"]), "", None)
            continue
        ratio = result["cpu"] / base["cpu"]
        report.row("swiftc -O, %s" % label, "%s (wall %s)" % (seconds(result["cpu"]), seconds(result["wall"])),
                   "50×20 %s" % seconds(base["cpu"]), times(ratio), "≤ %.1f s" % TARGET_COMPILE_SECONDS,
                   result["cpu"] <= TARGET_COMPILE_SECONDS)

    report.section("generated Swift: Machine.send, %s pre-generated random events (ContinuousClock, median of 5)"
                   % format(dispatch_events, ","))
    driver = os.path.join(HERE, "DispatchDriver.swift")
    binaries = {}
    for states, events in dispatch_shapes:
        source = sources.get((states, events))
        if source is None:
            spec = make_input(args.work, "reducer", states, events)
            source = os.path.join(work, "Big-%dx%d.swift" % (states, events))
            run([args.flowspec, "gen", spec, "--output", source])
        binary = os.path.join(work, "dispatch-%dx%d" % (states, events))
        run(["swiftc", "-O", "-wmo", "-parse-as-library", *linking(runtime),
             source, driver, "-o", binary])
        out = run([binary, str(dispatch_events)]).split()
        values = dict(zip(out[0::2], out[1::2]))
        send, cpu, floor_ns, equal = (float(values[k]) for k in ("send", "cpu", "floor", "equal"))
        label = "%s states × %d events" % (format(states, ","), events)
        report.row("send, %s" % label, "%.1f ns/event (CPU %.1f)" % (send, cpu),
                   "loop alone %.2f ns" % floor_ns, "", "≤ %.0f ns" % TARGET_DISPATCH_NS, send <= TARGET_DISPATCH_NS)
        report.row("  Event == Event, %s" % label, "%.1f ns" % equal, "", "", "", None)
        binaries[(states, events)] = binary

    report.section("FlowDriver: one input that changes the state, its timer and work re-armed (median of 5)")
    binary = os.path.join(work, "driver-bench")
    run(["swiftc", "-O", "-wmo", "-parse-as-library", *linking(runtime),
         app, os.path.join(HERE, "DriverBench.swift"), "-o", binary])
    samples = []
    for _ in range(5):
        out = run([binary, "20000"]).split()
        values = dict(zip(out[0::2], out[1::2]))
        samples.append((float(values["driver"]), float(values["machine"])))
    driver_ns = statistics.median(d for d, _ in samples)
    machine_ns = statistics.median(m for _, m in samples)
    report.row("FlowDriver.send, LaunchAuth login screen ↔ signing in", "%.2f µs/input" % (driver_ns / 1000),
               "Machine.send %.1f ns" % machine_ns, times(driver_ns / machine_ns), "", None)
    return {"runtime": runtime, "work": work, "before": before, "compile": compile_argv, "base": base,
            "flat dispatch": binaries.get((NESTED_STATES, 20))}


def bench_nested(report, args, codegen, reps, dispatch_events):
    """Machines with compound states: `check` of a nested spec against the libyaml loop, the
    generated code's compile time (a nested app of realistic size, and 5,000 states four deep in
    the table form), and `send` on those 5,000 states against the same states flat, side by
    side, with no allocation."""
    report.section("nested machines (compound states four deep): check, generated code, Machine.send")
    path = make_input(args.work, "nestedflow", NESTED_FLOW_STATES)
    size = os.path.getsize(path)
    floor, check = measure_side_by_side([[args.floor, path], [args.flowspec, "check", path]], reps)
    report.row("check CPU, nested flow spec, %s (%s states)" % (megabytes(size), format(NESTED_FLOW_STATES, ",")),
               seconds(check["cpu"]), "libyaml loop %s" % seconds(floor["cpu"]),
               times(check["cpu"] / max(floor["cpu"], 1e-9)), "", None)
    label = "check instructions, nested %s (callgrind)" % megabytes(size)
    ours, base = instructions([args.flowspec, "check", path]), instructions([args.floor, path])
    if ours is None or base is None:
        report.row(label, "valgrind not installed", "", "", "", None)
    else:
        ratio = ours / base
        report.row(label, "%.1fM" % (ours / 1e6), "libyaml loop %.1fM" % (base / 1e6), times(ratio),
                   "≤ %.1f×" % TARGET_CHECK_INSTRUCTIONS, ratio <= TARGET_CHECK_INSTRUCTIONS)

    work, compile_argv = codegen["work"], codegen["compile"]
    app = os.path.join(work, "NestedApp.swift")
    run([args.flowspec, "gen", os.path.join(HERE, "nested-app.yaml"), "--output", app])
    compiled, compiled_before = measure_side_by_side([compile_argv(app), compile_argv(codegen["before"])], reps,
                                                     min_seconds=0)
    ratio = compiled["cpu"] / compiled_before["cpu"]
    report.row("swiftc -O, generated Benchmarks/nested-app.yaml",
               "%s (wall %s)" % (seconds(compiled["cpu"]), seconds(compiled["wall"])),
               "before the runtime %s" % seconds(compiled_before["cpu"]), times(ratio),
               "< %.2f×" % TARGET_NESTED_APP_COMPILE, ratio < TARGET_NESTED_APP_COMPILE)
    spec = make_input(args.work, "nested", NESTED_STATES, 20)
    source = os.path.join(work, "Nested-%dx20.swift" % NESTED_STATES)
    run([args.flowspec, "gen", spec, "--output", source])
    compile_row(report, "swiftc -O, nested %s states × 20 events" % format(NESTED_STATES, ","), source, codegen,
                reps)

    flat = codegen["flat dispatch"]
    runtime = codegen["runtime"]
    def dispatch_binary(source, name):
        binary = os.path.join(work, name)
        run(["swiftc", "-O", "-wmo", "-parse-as-library", *linking(runtime),
             source, os.path.join(HERE, "DispatchDriver.swift"), "-o", binary])
        return binary

    def dispatch(binary):
        values = run([binary, str(dispatch_events)]).split()
        return dict(zip(values[0::2], values[1::2]))

    def send_ns(binary):
        return float(dispatch(binary)["send"])

    def side_by_side_ns(base, other):
        """Each binary's median of 5 loops, five times in turn; the medians of those."""
        samples = ([], [])
        for _ in range(5):
            samples[0].append(send_ns(base))
            samples[1].append(send_ns(other))
        return statistics.median(samples[0]), statistics.median(samples[1])

    nested = dispatch_binary(source, "dispatch-nested-%dx20" % NESTED_STATES)
    # What nesting costs: the nested machine against the same machine written flat, whose steps
    # run as transition effects what the nested one's run as its zones' `exit` and `entry`.
    spec = make_input(args.work, "flattened", NESTED_STATES, 20)
    flattened_source = os.path.join(work, "Flattened-%dx20.swift" % NESTED_STATES)
    run([args.flowspec, "gen", spec, "--output", flattened_source])
    flattened = dispatch_binary(flattened_source, "dispatch-flattened-%dx20" % NESTED_STATES)
    ran = [{key: dispatch(binary)[key] for key in ("state", "effects")} for binary in (flattened, nested)]
    if ran[0] != ran[1]:
        raise SystemExit("the flattened machine does not behave as the nested one: %s against %s" % tuple(ran))
    flat_ns, nested_ns = side_by_side_ns(flattened, nested)
    ratio = nested_ns / flat_ns
    label = "send, nested %s states × 20 events" % format(NESTED_STATES, ",")
    report.row(label, "%.1f ns/event" % nested_ns, "the same machine flat %.1f ns" % flat_ns, times(ratio),
               "≤ %.1f×" % TARGET_NESTED_DISPATCH, ratio <= TARGET_NESTED_DISPATCH)
    counted = [instructions([binary, "100000"], within="*sendAll*") for binary in (flattened, nested)]
    if None not in counted:
        report.row("  instructions in send, nested (callgrind)", "%.1fM" % (counted[1] / 1e6),
                   "the same machine flat %.1fM" % (counted[0] / 1e6), times(counted[1] / counted[0]), "", None)
    bare_ns, nested_ns = side_by_side_ns(flat, nested)
    report.row("  against the same states flat, without effects", "%.1f ns/event" % nested_ns,
               "flat, no effects %.1f ns" % bare_ns, times(nested_ns / bare_ns), "", None)
    allocation_row(report, "  allocations in send, nested", nested)

    # History states: the same machine with a deep history state in each zone.
    spec = make_input(args.work, "nestedhistory", NESTED_STATES, 20)
    source = os.path.join(work, "NestedHistory-%dx20.swift" % NESTED_STATES)
    run([args.flowspec, "gen", spec, "--output", source])
    # A step into a history state names what it runs before its entries, and nothing per state
    # it may resume: the generated code stays the size of the machine's steps.
    compile_row(report, "swiftc -O, nested with history, %s states × 20 events" % format(NESTED_STATES, ","),
                source, codegen, reps)
    history = dispatch_binary(source, "dispatch-history-%dx20" % NESTED_STATES)
    nested_ns, history_ns = side_by_side_ns(nested, history)
    ratio = history_ns / nested_ns
    report.row("send, nested with history, %s states × 20 events" % format(NESTED_STATES, ","),
               "%.1f ns/event" % history_ns, "without history %.1f ns" % nested_ns, times(ratio),
               "≤ %.1f×" % TARGET_HISTORY_DISPATCH, ratio <= TARGET_HISTORY_DISPATCH)
    allocation_row(report, "  allocations in send, nested with history", history)

    # Parallel regions: the effects of an event that leaves a unit and enters another are
    # several runs of the effect list, held in place.
    spec = make_input(args.work, "parallel", PARALLEL_STATES, 20)
    source = os.path.join(work, "Parallel-%dx20.swift" % PARALLEL_STATES)
    run([args.flowspec, "gen", spec, "--output", source])
    parallel = dispatch_binary(source, "dispatch-parallel-%dx20" % PARALLEL_STATES)
    nested_ns, parallel_ns = side_by_side_ns(nested, parallel)
    report.row("send, parallel, 3 regions of %d states × 20 events" % (PARALLEL_STATES // 3),
               "%.1f ns/event" % parallel_ns, "nested %s states %.1f ns" % (format(NESTED_STATES, ","), nested_ns),
               times(parallel_ns / nested_ns), "", None)
    allocation_row(report, "  allocations in send, parallel", parallel)

    # The same machine whose every state's first transition reads where the next region is
    # (`notIn:`): the kernel sets what the guards read before each choice of steps.
    spec = make_input(args.work, "parallelin", PARALLEL_STATES, 20)
    source = os.path.join(work, "ParallelIn-%dx20.swift" % PARALLEL_STATES)
    run([args.flowspec, "gen", spec, "--output", source])
    reading = dispatch_binary(source, "dispatch-parallel-in-%dx20" % PARALLEL_STATES)
    parallel_ns, reading_ns = side_by_side_ns(parallel, reading)
    report.row("send, parallel, guards on where the flow is, 3 regions of %d states" % (PARALLEL_STATES // 3),
               "%.1f ns/event" % reading_ns, "without them %.1f ns" % parallel_ns, times(reading_ns / parallel_ns),
               "", None)
    allocation_row(report, "  allocations in send, parallel with guards on where the flow is", reading)

    # A parallel machine too large for `switch` statements (the switch form of these 3,000
    # states takes minutes to compile) gets the table form.
    spec = make_input(args.work, "parallel", PARALLEL_TABLE_STATES, 20)
    source = os.path.join(work, "ParallelTable-%dx20.swift" % PARALLEL_TABLE_STATES)
    run([args.flowspec, "gen", spec, "--output", source])
    regions = "3 regions of %s states × 20 events" % format(PARALLEL_TABLE_STATES // 3, ",")
    compile_row(report, "swiftc -O, parallel table form, " + regions, source, codegen, reps)
    table = dispatch_binary(source, "dispatch-parallel-table-%dx20" % PARALLEL_TABLE_STATES)
    parallel_ns, table_ns = side_by_side_ns(parallel, table)
    report.row("send, parallel table form, " + regions, "%.1f ns/event" % table_ns,
               "switch form, %d states %.1f ns" % (PARALLEL_STATES, parallel_ns), times(table_ns / parallel_ns), "",
               None)
    allocation_row(report, "  allocations in send, parallel table form", table)


def compile_row(report, label, source, codegen, reps):
    """The row of `swiftc -O` on a generated file, against the 50 × 20 machine's, with the
    compile-time target."""
    result = measure(codegen["compile"](source), reps, min_seconds=0)
    report.row(label, "%s (wall %s)" % (seconds(result["cpu"]), seconds(result["wall"])),
               "50×20 %s" % seconds(codegen["base"]["cpu"]), times(result["cpu"] / codegen["base"]["cpu"]),
               "≤ %.1f s" % TARGET_COMPILE_SECONDS, result["cpu"] <= TARGET_COMPILE_SECONDS)


def allocation_row(report, label, binary):
    """The row of `binary`'s allocations an event sent (valgrind's memcheck count, which must
    not grow with the events it sends): 0, or the row says how many."""
    if shutil.which("valgrind") is None:
        report.row(label, "valgrind not installed", "", "", "", None)
        return
    counts = []
    for events in (20_000, 200_000):
        result = subprocess.run(["valgrind", binary, str(events)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT)
        found = re.search(r"total heap usage: ([\d,]+) allocs", result.stderr)
        counts.append(int(found.group(1).replace(",", "")) if found else None)
    if None in counts:
        report.row(label, "valgrind gave no count", "", "", "", None)
        return
    # Five timed loops over the events (the warm-up sends the first 10,000 of either): 900,000
    # sends more. Both counts are above 10,000, so that both copy the warm-up's events.
    per_event = (counts[1] - counts[0]) / (5 * 180_000)
    report.row(label, "%.2f an event" % per_event,
               "%s allocations at 20,000 events, %s at 200,000" % (format(counts[0], ","), format(counts[1], ",")),
               "", "0", per_event == 0)


def bench_graphs(report, args, chain_sizes, scc_sizes, reps):
    report.section("large graphs: check CPU, N vs N/10 states (linear, no stack overflow)")
    results = {}
    for kind, sizes, expect in (("chain", chain_sizes, 0), ("scc", scc_sizes, 1)):
        small, big = sizes
        paths = [make_input(args.work, kind, states) for states in (small, big)]
        if kind == "scc":
            for path in paths:
                out = subprocess.run([args.flowspec, "check", "--format", "json", path], capture_output=True, text=True)
                found = out.stdout.count('"infinite-loop"')
                if found != 1:
                    raise SystemExit("bench: expected one infinite-loop finding in %s, got %d" % (path, found))
        s_result, b_result, floor = measure_side_by_side(
            [[args.flowspec, "check", paths[0]], [args.flowspec, "check", paths[1]], [args.floor, paths[1]]],
            reps, [(expect,), (expect,), (0,)])
        s_states, b_states, b_path = small, big, paths[1]
        name = "chain of task states" if kind == "chain" else "one loop of task states"
        # Informative: the exit status is no verdict, since measure_side_by_side stops the
        # benchmark when a run ends with another; the ratio row below is the target.
        report.row("check, %s, %s states" % (name, format(b_states, ",")),
                   "%s (%.1f µs/state)" % (seconds(b_result["cpu"]), b_result["cpu"] / b_states * 1e6),
                   "libyaml loop %s" % seconds(floor["cpu"]), times(b_result["cpu"] / floor["cpu"]), "", None)
        ratio = b_result["cpu"] / s_result["cpu"]
        report.row("  %s ÷ %s states" % (format(b_states, ","), format(s_states, ",")), times(ratio),
                   "%s states %s" % (format(s_states, ","), seconds(s_result["cpu"])), "",
                   "≤ %.0f×" % TARGET_LINEAR, ratio <= TARGET_LINEAR)
        results[kind] = (b_states, b_path, b_result)
    return results


TARGET_PROPERTY_LINEAR = 3.0  # check CPU with 10 properties at N states ÷ at N/2 (linear: 2×)
TARGET_PROPERTY_REGIONS_SECONDS = 2.0  # a property of 3 regions with timers at once: checked or refused
TARGET_COVER_STEPS = 1.1  # steps of `flowspec paths` ÷ transitions, for a chain and a loop
TARGET_DIFF = 2.5  # diff of two versions of the 10 MB flow spec ÷ check of one, CPU
TARGET_LSP_APP_MS = 5.0  # flowspec-lsp: didChange → publishDiagnostics, specs/app.yaml, median
TARGET_LSP_FLOW_MS = 150.0  # the same, the 1 MB flow spec
TARGET_LSP_MEMORY = 1.2  # resident memory after 1,000 edits ÷ after the first check


def bench_lsp(report, args, flow_path):
    """flowspec-lsp through the protocol (Benchmarks/lsp_latency.py): the time from a change to
    its findings, and whether memory grows with the number of edits."""
    report.section("flowspec-lsp: didChange → publishDiagnostics through the protocol (median)")
    script = [sys.executable, os.path.join(HERE, "lsp_latency.py"), args.flowspec_lsp]

    def measure_lsp(path, edits):
        values = dict(part.split("=") for part in run(script + [path, str(edits)]).split())
        return float(values["median_ms"]), int(values["rss_first_kb"]), int(values["rss_last_kb"])

    app = os.path.join(ROOT, "specs", "app.yaml")
    app_ms, first, last = measure_lsp(app, 1000)
    report.row("didChange → diagnostics, specs/app.yaml (1,000 edits)", "%.2f ms" % app_ms, "", "",
               "≤ %.0f ms" % TARGET_LSP_APP_MS, app_ms <= TARGET_LSP_APP_MS)
    growth = last / max(first, 1)
    report.row("  resident memory after 1,000 edits", "%.1f MB" % (last / 1024),
               "after the first check %.1f MB" % (first / 1024), times(growth), "≤ %.1f×" % TARGET_LSP_MEMORY,
               growth <= TARGET_LSP_MEMORY)
    flow_ms, _, _ = measure_lsp(flow_path, 10)
    report.row("didChange → diagnostics, %s flow spec (10 edits)" % megabytes(os.path.getsize(flow_path)),
               "%.1f ms" % flow_ms, "", "", "≤ %.0f ms" % TARGET_LSP_FLOW_MS, flow_ms <= TARGET_LSP_FLOW_MS)


def property_ring(states, with_properties=True):
    """A ring of `states` input states (next, and back from the fourth on) with an error screen
    off the first, and ten properties that hold, so that each is searched to the end."""
    last = "s%d" % (states - 1)
    lines = ["flowspec: 1", "machines:", "  Ring:", "    initial: s0", "    defaults: { kind: input }",
             "    conditions: [offline]", "    events: [next, back, fail, retry]", "    effects: [save]",
             "    states:",
             "      s0: { on: { next: { to: s1, unless: offline }, fail: { to: error, if: offline } } }",
             "      s1: { on: { next: s2 } }"]
    for i in range(2, states):
        to = "s0" if i == states - 1 else "s%d" % (i + 1)
        save = ", effects: [save]" if i >= states - 2 else ""
        back = ", back: s%d" % (i - 1) if i >= 3 else ""
        lines.append("      s%d: { on: { next: { to: %s%s }%s } }" % (i, to, save, back))
    lines.append("      error: { on: { retry: s0 } }")
    if with_properties:
        lines += ["    require:",
                  "      - never: { in: s1, while: offline }",
                  "      - before: { first: s0, then: error }",
                  "      - before: { first: s1, then: %s }" % last,
                  "      - before: { first: s%d, then: %s }" % (states // 2, last),
                  "      - before: { effect: save, then: s0, after: %s }" % last,
                  "      - between: { after: s1, until: %s, never: error }" % last,
                  "      - everyEntry: { to: %s, runs: save }" % last,
                  "      - leadsTo: { from: error, to: s0 }",
                  "      - leadsTo: { from: s1, to: s2 }",
                  "      - atMost: { times: 3, of: fail, before: error }"]
    return "\n".join(lines) + "\n"


def bench_properties(report, args, sizes, reps):
    """Properties proved on every run: `specs/app.yaml` with and without them, ten properties
    on a ring of N and N/2 states (linear in the product of configurations and observer
    states), and a property of a machine whose regions' timers run at once (checked or refused
    within its target)."""
    report.section("properties (require: never, before, between, everyEntry, leadsTo, atMost, whenever)")
    app = os.path.join(ROOT, "specs", "app.yaml")
    with open(app) as f:
        text = f.read()
    kept, count = [], 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        # Drop the property items (one line each, or `- leadsTo:` with its two lines after).
        if any(stripped.startswith("- %s:" % key) for key in ("never", "before", "between", "everyEntry", "leadsTo",
                                                              "atMost", "whenever")):
            count += 1
            continue
        if stripped.startswith(("from: [", "to: [")):
            continue
        kept.append(line)
    bare = os.path.join(args.work, "app-without-properties.yaml")
    with open(bare, "w") as f:
        f.write("".join(kept))
    argvs = [[args.flowspec, "check", app], [args.flowspec, "check", bare]]
    for argv in argvs:
        spawn_wall(argv)
    walls = ([], [])
    for _ in range(40):
        for position, argv in enumerate(argvs):
            walls[position].append(spawn_wall(argv))
    with_ms, without_ms = (statistics.median(w) for w in walls)
    report.row("check specs/app.yaml, with its properties, median wall", ms(with_ms),
               "without them %s" % ms(without_ms), times(with_ms / without_ms), "≤ %.0f ms" % TARGET_APP_MS,
               with_ms * 1000 <= TARGET_APP_MS)
    report.row("  properties in specs/app.yaml", str(count), "", "", "", None)
    small, big = sizes
    paths = []
    for n in (small, big):
        path = os.path.join(args.work, "properties-%d.yaml" % n)
        with open(path, "w") as f:
            f.write(property_ring(n))
        paths.append(path)
    bare_big = os.path.join(args.work, "properties-%d-bare.yaml" % big)
    with open(bare_big, "w") as f:
        f.write(property_ring(big, with_properties=False))
    s_result, b_result, bare_result = measure_side_by_side(
        [[args.flowspec, "check", p] for p in paths + [bare_big]], reps)
    # Every state is one configuration (input states, no timers, no retries): the product of
    # each property is the configurations times its observer's states (1 to 4 here).
    configurations = big + 1
    product = configurations * (1 + 2 + 3 + 3 + 3 + 2 + 1 + 2 + 2 + 4)
    report.row("check, ring of %s states, 10 properties" % format(big, ","), seconds(b_result["cpu"]),
               "without them %s" % seconds(bare_result["cpu"]), times(b_result["cpu"] / bare_result["cpu"]), "",
               None)
    report.row("  product searched (configurations × observer states, summed)", format(product, ","),
               "%s configurations" % format(configurations, ","), "", "", None)
    growth = b_result["cpu"] / s_result["cpu"]
    report.row("  CPU, %s ÷ %s states" % (format(big, ","), format(small, ",")), times(growth),
               "%s: %s; %s: %s" % (format(big, ","), seconds(b_result["cpu"]), format(small, ","),
                                   seconds(s_result["cpu"])), "", "≤ %.0f×" % TARGET_PROPERTY_LINEAR,
               growth <= TARGET_PROPERTY_LINEAR)
    # Three regions of task and input states whose timers run at once, with one property.
    regions = make_input(args.work, "regions", 150)
    with open(regions) as f:
        source = f.read()
    last = re.findall(r"^              (\w+):", source, re.M)[-1]
    path = os.path.join(args.work, "regions-property.yaml")
    with open(path, "w") as f:
        f.write(source.rstrip("\n") + "\n    require:\n      - never: %s\n" % last)
    result = measure([args.flowspec, "check", path], reps, expect=(0, 1))
    out = subprocess.run([args.flowspec, "check", path], capture_output=True, text=True).stdout
    verdict = "refused (limit-exceeded)" if "limit-exceeded" in out else "checked"
    report.row("check, 3 regions × 50 states, timers at once, 1 property", seconds(result["wall"]), verdict, "",
               "< %.0f s" % TARGET_PROPERTY_REGIONS_SECONDS, result["wall"] < TARGET_PROPERTY_REGIONS_SECONDS)


def bench_import(report, args, flow_path, reps):
    """`flowspec import` of an SCXML document (the export of a flow spec of about 1 MB) and the
    check of the spec it makes, against `xmllint --noout` (libxml2) only parsing the same file."""
    report.section("import (SCXML, XState → spec, checked) vs xmllint --noout, python3 json.load")
    document = os.path.join(args.work, "import-flow.scxml")
    with open(document, "w") as f:
        if subprocess.run([args.flowspec, "export", flow_path, "--format", "scxml"], stdout=f).returncode != 0:
            raise SystemExit("bench: flowspec export of %s failed" % flow_path)
    size = os.path.getsize(document)
    spec = os.path.join(args.work, "import-flow.flowspec.yaml")
    argvs = [[args.flowspec, "import", document, "--output", spec]]
    expects = [(0, 1)]
    xmllint = shutil.which("xmllint")
    if xmllint:
        argvs.append([xmllint, "--noout", document])
        expects.append((0,))
    results = measure_side_by_side(argvs, reps, expects)
    imported = results[0]
    if xmllint:
        parsed = results[1]
        report.row("import and check, %s of SCXML" % megabytes(size), seconds(imported["cpu"]),
                   "xmllint --noout %s" % seconds(parsed["cpu"]), times(imported["cpu"] / parsed["cpu"]), "", None)
    else:
        report.row("import and check, %s of SCXML" % megabytes(size), seconds(imported["cpu"]),
                   "xmllint not installed (apt-get install libxml2-utils)", "", "", None)
    report.row("  peak memory of the import", megabytes(imported["rss"]), "%s file" % megabytes(size),
               times(imported["rss"] / size), "", None)

    # The same flow as an XState config, against Python's JSON reader (C) only parsing it.
    config = os.path.join(args.work, "import-flow.json")
    with open(config, "w") as f:
        if subprocess.run([args.flowspec, "export", flow_path, "--format", "xstate"], stdout=f).returncode != 0:
            raise SystemExit("bench: flowspec export --format xstate of %s failed" % flow_path)
    size = os.path.getsize(config)
    parse = "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))"
    imported, parsed = measure_side_by_side(
        [[args.flowspec, "import", config, "--output", spec], [sys.executable, "-c", parse, config]], reps,
        [(0, 1), (0,)])
    report.row("import and check, %s of XState JSON" % megabytes(size), seconds(imported["cpu"]),
               "python3 json.load %s" % seconds(parsed["cpu"]), times(imported["cpu"] / parsed["cpu"]), "", None)
    report.row("  peak memory of the import", megabytes(imported["rss"]), "%s file" % megabytes(size),
               times(imported["rss"] / size), "", None)

    # The same config in the JavaScript file that defines it: reading source (comments, bare
    # keys, code kept unrun) should cost about what reading JSON does.
    source = os.path.join(args.work, "import-flow.js")
    with open(config) as f, open(source, "w") as out:
        out.write("import { createMachine } from 'xstate';\n\n// The flow, as its file defines it.\n")
        out.write("export const machine = createMachine(" + f.read().rstrip("\n") + ");\n")
    from_source, from_json = measure_side_by_side(
        [[args.flowspec, "import", source, "--output", spec], [args.flowspec, "import", config, "--output", spec]],
        reps, [(0, 1), (0, 1)])
    ratio = from_source["cpu"] / from_json["cpu"]
    report.row("import and check, the same config as JavaScript", seconds(from_source["cpu"]),
               "as JSON %s" % seconds(from_json["cpu"]), times(ratio), "≤ %.2f×" % TARGET_SOURCE_IMPORT,
               ratio <= TARGET_SOURCE_IMPORT)


def bench_export(report, args, small, big, reps):
    """`flowspec export` of a flow spec and of one ten times its size, in both formats: the
    time should grow with the spec, not faster (a writer that looks the whole machine over for
    each state would show here first)."""
    report.section("export (SCXML, XState): a flow spec vs one 10× its size (CPU, median)")
    for fmt in ("scxml", "xstate"):
        runs = measure_side_by_side(
            [[args.flowspec, "export", big, "--format", fmt], [args.flowspec, "export", small, "--format", fmt]],
            reps, [(0,), (0,)])
        ratio = runs[0]["cpu"] / runs[1]["cpu"]
        report.row("export --format %s, %s" % (fmt, megabytes(os.path.getsize(big))), seconds(runs[0]["cpu"]),
                   "%s: %s" % (megabytes(os.path.getsize(small)), seconds(runs[1]["cpu"])), times(ratio),
                   "≤ %.0f×" % TARGET_LINEAR, ratio <= TARGET_LINEAR)


def hostile_import_inputs(work, kind, n):
    """An SCXML document of `n` of one thing an importer once did quadratic work for: `events`,
    one state with `n` transitions on events `g.eI` (each guarded) and one on the descriptor `g`,
    which matches them all (prefix matching, indexed by a trie of tokens); `attributes`, one
    element with `n` attributes (the check that none is written twice, a set)."""
    path = os.path.join(work, "import-%s-%d.scxml" % (kind, n))
    with open(path, "w") as f:
        f.write('<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s"><state id="s"')
        if kind == "attributes":
            f.write("".join(' a%d="v"' % i for i in range(n)))
            f.write('><transition event="go" target="s"/></state></scxml>\n')
        else:
            f.write(">" + "".join('<transition event="g.e%d" cond="c%d" target="s"/>' % (i, i) for i in range(n)))
            f.write('<transition event="g" target="s"/></state></scxml>\n')
    return path


def bench_import_scaling(report, args, n, reps):
    """`flowspec import` of the inputs of ``hostile_import_inputs`` at `n` and `n`/10, side by
    side: both grew quadratically (1,200 transitions took 39 s, 100,000 attributes 20 s)."""
    report.section("import at scale: prefix-matched events, attributes of one element; CPU, N vs N/10")
    spec = os.path.join(args.work, "import-scaling.flowspec.yaml")
    for kind, what, size in (("events", "transitions matched by prefix", n),
                             ("attributes", "attributes on one element", 5 * n)):
        big, small = hostile_import_inputs(args.work, kind, size), hostile_import_inputs(args.work, kind, size // 10)
        runs = measure_side_by_side(
            [[args.flowspec, "import", big, "--output", spec], [args.flowspec, "import", small, "--output", spec]],
            reps, [(0, 1), (0, 1)])
        ratio = runs[0]["cpu"] / runs[1]["cpu"]
        report.row("import, %s %s" % (format(size, ","), what), seconds(runs[0]["cpu"]),
                   "%s: %s" % (format(size // 10, ","), seconds(runs[1]["cpu"])), times(ratio),
                   "≤ %.0f×" % TARGET_LINEAR, ratio <= TARGET_LINEAR)


def bench_diff(report, args, path, reps):
    """`flowspec diff` of two versions of a flow spec (a few hundred timeouts changed) against
    `check` of the new one, side by side: diff reads and checks both versions."""
    report.section("flowspec diff: two versions of a flow spec vs check of one (CPU, median)")
    changed = path[:-len(".yaml")] + "-changed.yaml"
    if not os.path.exists(changed):
        with open(path) as f:
            lines = f.read().split("\n")
        count = 0
        for index, line in enumerate(lines):
            match = re.match(r"^(\s+timeout: \{ after: )(\d+)([sm])(.*)$", line)
            if match and index % 97 == 0:
                lines[index] = "%s%d%s%s" % (match.group(1), int(match.group(2)) + 1, match.group(3), match.group(4))
                count += 1
        with open(changed + ".tmp", "w") as f:
            f.write("\n".join(lines))
        os.replace(changed + ".tmp", changed)
    diff, check = measure_side_by_side(
        [[args.flowspec, "diff", path, changed], [args.flowspec, "check", changed]], reps, [(0,), (0,)])
    changes = run([args.flowspec, "diff", path, changed]).count(": changed timeout of ")
    ratio = diff["cpu"] / check["cpu"]
    report.row("diff, %s, %d timeouts changed" % (megabytes(os.path.getsize(path)), changes), seconds(diff["cpu"]),
               "check of one %s" % seconds(check["cpu"]), times(ratio), "≤ %.1f×" % TARGET_DIFF, ratio <= TARGET_DIFF)


def bench_paths(report, args, sizes, flow_states, reps):
    """`flowspec paths`: how many steps the paths take to cover every transition (against the
    number of transitions), and the time to plan and print them, N vs N/10 (linear)."""
    report.section("test paths (flowspec paths): steps to cover every transition; CPU, N vs N/10")
    small, big = sizes
    shapes = (("chain", "chain of task states (timeouts)", 1), ("ring", "loop of input states (next, back)", 2))
    for kind, label, per_state in shapes:
        inputs = [make_input(args.work, kind, n) for n in (small, big)]
        s_result, b_result = measure_side_by_side([[args.flowspec, "paths", p] for p in inputs], reps, [(0,), (0,)])
        steps = sum(1 for line in run([args.flowspec, "paths", inputs[1]]).splitlines() if " -> " in line)
        transitions = big * per_state
        ratio = steps / transitions
        report.row("paths, %s, %s states" % (label, format(big, ",")), "%s steps" % format(steps, ","),
                   "%s transitions" % format(transitions, ","), times(ratio), "≤ %.1f×" % TARGET_COVER_STEPS,
                   ratio <= TARGET_COVER_STEPS)
        growth = b_result["cpu"] / s_result["cpu"]
        report.row("  CPU, %s ÷ %s states" % (format(big, ","), format(small, ",")), times(growth),
                   "%s: %s; %s: %s" % (format(big, ","), seconds(b_result["cpu"]), format(small, ","),
                                       seconds(s_result["cpu"])), "", "≤ %.0f×" % TARGET_LINEAR,
                   growth <= TARGET_LINEAR)
    # Parallel regions whose timers run at once: refused at the configuration limit (or
    # planned) within a second.
    path = make_input(args.work, "regions", 150)
    result = measure([args.flowspec, "paths", path], reps, expect=(0, 2))
    status = time_once([args.flowspec, "paths", path]).status
    report.row("paths, 3 regions × 50 states, timers at once", seconds(result["wall"]),
               "refused at the configuration limit" if status == 2 else "planned", "",
               "< %.0f s" % TARGET_REGIONS_PATHS_SECONDS, result["wall"] < TARGET_REGIONS_PATHS_SECONDS)
    # A realistic flow (forward and backward jumps): informative, the paths restart from the
    # start whenever the greedy walk has nothing new where it is.
    path = make_input(args.work, "flow", flow_states)
    result = measure([args.flowspec, "paths", path], reps)
    out = run([args.flowspec, "paths", "--format", "json", path])
    document = json.loads(out)["machines"][0]
    steps = sum(len(p["steps"]) for p in document["paths"])
    report.row("paths, flow spec, %s states" % format(flow_states, ","),
               "%s steps in %s paths, %s" % (format(steps, ","), format(len(document["paths"]), ","),
                                             seconds(result["cpu"])),
               "%s items" % format(document["items"], ","), times(steps / document["items"]), "", None)


# Hostile shapes (docs/hostile-input.md): each must end with its refusal within a second and
# a bounded memory, however much work it would make unbounded.
TARGET_HOSTILE_SECONDS = 1.0
TARGET_HOSTILE_BYTES = 500 * 1000 * 1000


def hostile_runs(levels):
    """Machines that run one another from two states each: 2^levels states if composed."""
    lines = ["flowspec: 1", "machines:"]
    for level in range(levels):
        lines += ["  M%d:" % level, "    initial: a", "    states:"]
        if level < levels - 1:
            lines += ["      a: { run: M%d, done: { end: b } }" % (level + 1),
                      "      b: { run: M%d, done: { end: end } }" % (level + 1), "      end: { kind: terminal }"]
        else:
            lines += ["      a: { kind: input, on: { go: end } }", "      end: { kind: terminal }"]
    return "\n".join(lines) + "\n"


def hostile_regions(regions, with_property):
    """A parallel state of `regions` regions of two states, each region with its own event."""
    lines = ["flowspec: 1", "machines:", "  P:", "    initial: p", "    states:", "      p:", "        parallel:"]
    for r in range(regions):
        lines += ["          r%d:" % r, "            initial: x%d" % r, "            states:",
                  "              x%d: { kind: input, on: { e%d: y%d } }" % (r, r, r),
                  "              y%d: { kind: input, on: { e%d: x%d } }" % (r, r, r)]
    if with_property:
        lines += ["    conditions: [c]", "    require:", "      - never: { in: x0, while: c }"]
    return "\n".join(lines) + "\n"


def hostile_hub(events, with_properties):
    """One state with `events` events, each to a second state that goes back."""
    names = ["e%d" % i for i in range(events)]
    lines = ["flowspec: 1", "machines:", "  H:", "    initial: a", "    conditions: [c]",
             "    events: [%s, back]" % ", ".join(names), "    states:", "      a:", "        kind: input",
             "        on:"] + ["          %s: b" % name for name in names]
    lines.append("      b: { kind: input, on: { back: a } }")
    if with_properties:
        lines += ["    require:", "      - never: { in: b, while: c }", "      - atMost: { times: 3, of: e0, before: b }"]
    return "\n".join(lines) + "\n"


def bench_hostile(report, args, reps):
    """Inputs written to make flowspec work without end: refused before the work, or at a
    bound checked as it goes, in well under a second and bounded memory."""
    report.section("hostile shapes: refused within a second and %s" % megabytes(TARGET_HOSTILE_BYTES))
    cases = [
        ("check, 24 machines each running the next from two states (2^24 if composed)", "runs.yaml",
         hostile_runs(24), ["check"], (1,)),
        ("paths, 1,000 regions of two states, an event each", "regions.yaml",
         hostile_regions(1000, False), ["paths"], (2,)),
        ("check, the same with a property", "regions-property.yaml",
         hostile_regions(1000, True), ["check"], (1,)),
    ]
    for label, name, text, command, expect in cases:
        path = os.path.join(args.work, "hostile-" + name)
        with open(path, "w") as f:
            f.write(text)
        result = measure([args.flowspec] + command + [path], reps, expect=expect)
        met = result["wall"] < TARGET_HOSTILE_SECONDS and result["rss"] <= TARGET_HOSTILE_BYTES
        report.row(label, seconds(result["wall"]), megabytes(result["rss"]), "",
                   "< %.0f s, ≤ %s" % (TARGET_HOSTILE_SECONDS, megabytes(TARGET_HOSTILE_BYTES)), met)
    # One state with many events: each input is found by its event (once a scan of the
    # state's transitions at every step, quadratic). CPU at N against N/10.
    for label, command, with_properties, expect, sizes in (
            ("paths, one state with N events", "paths", False, (0,), (8000, 80000)),
            ("check, one state with N events, 2 properties", "check", True, (1,), (10000, 100000))):
        paths = []
        for n in sizes:
            path = os.path.join(args.work, "hostile-hub-%s-%d.yaml" % (command, n))
            with open(path, "w") as f:
                f.write(hostile_hub(n, with_properties))
            paths.append(path)
        small, big = measure_side_by_side([[args.flowspec, command, p] for p in paths], reps, [expect, expect])
        growth = big["cpu"] / small["cpu"]
        report.row("%s, %s ÷ %s" % (label, format(sizes[1], ","), format(sizes[0], ",")), times(growth),
                   "%s: %s; %s: %s" % (format(sizes[1], ","), seconds(big["cpu"]), format(sizes[0], ","),
                                       seconds(small["cpu"])), "", "≤ %.0f×" % TARGET_LINEAR,
                   growth <= TARGET_LINEAR)


# Shapes that once made `check` quadratic: one finding per state, each with something that
# grows with the spec (a path, a long line, a configuration of retry counters).
FINDING_SHAPES = (
    ("stuck", "a loop no state can leave (a finding each)", 1),
    ("events", "unused events on one line (a finding each)", 0),
    ("retries", "a chain of retries under `within`", 1),
    ("typos", "targets that are not states (a finding each)", 1),
)


def bench_shapes(report, args, sizes, reps):
    report.section("findings at scale: check CPU, N vs N/10 (linear)")
    small, big = sizes
    for kind, label, expect in FINDING_SHAPES:
        s_result, b_result = measure_side_by_side(
            [[args.flowspec, "check", make_input(args.work, kind, n)] for n in (small, big)], reps, [(expect,)] * 2)
        # Informative, as in bench_graphs: a run that ends with another exit status stops the
        # benchmark in measure_side_by_side, so only the ratio row below has a verdict.
        report.row("check, %s, %s" % (label, format(big, ",")),
                   "%s (%.1f µs each)" % (seconds(b_result["cpu"]), b_result["cpu"] / big * 1e6), "", "", "", None)
        ratio = b_result["cpu"] / s_result["cpu"]
        report.row("  %s ÷ %s" % (format(big, ","), format(small, ",")), times(ratio),
                   "%s: %s" % (format(small, ","), seconds(s_result["cpu"])), "",
                   "≤ %.0f×" % TARGET_LINEAR, ratio <= TARGET_LINEAR)


def bench_formats(report, args, size, reps):
    """The machine-readable outputs of many findings, against the text output (informative):
    findings are written as they are printed, so no format holds the whole report in memory."""
    report.section("findings at scale, each output format: CPU and peak memory (informative)")
    path = make_input(args.work, "stuck", size)
    text = measure([args.flowspec, "check", path], reps, expect=(1,))
    for fmt in ("json", "sarif", "github"):
        result = measure([args.flowspec, "check", "--format", fmt, path], reps, expect=(1,))
        report.row("check --format %s, %s findings" % (fmt, format(size, ",")),
                   "%s, %s peak" % (seconds(result["cpu"]), megabytes(result["rss"])),
                   "text %s, %s" % (seconds(text["cpu"]), megabytes(text["rss"])),
                   "%s memory" % times(result["rss"] / text["rss"]), "", None)


def bench_pyyaml(report, args, flows, figures, graphs, reps_small):
    report.section("what a user might write instead: PyYAML C loader + BFS + Tarjan (Benchmarks/pyyaml_check.py)")
    script = [sys.executable, os.path.join(HERE, "pyyaml_check.py")]
    if args.quick:
        flows = flows[-1:]
    cases = [("flow %s" % megabytes(figures[s][0]), path, figures[s][1], 0) for s, path in flows]
    for kind, (states, path, result) in sorted(graphs.items()):
        cases.append(("%s %s states" % (kind, format(states, ",")), path, result, 0 if kind == "chain" else 1))
    for label, path, check, expect in cases:
        reps = reps_small if os.path.getsize(path) < 5e6 else 1
        py = measure(script + [path], reps, expect=(expect,))
        speedup = py["cpu"] / check["cpu"]
        report.row("PyYAML script CPU, %s" % label, "%s, %s peak" % (seconds(py["cpu"]), megabytes(py["rss"])),
                   "flowspec %s, %s" % (seconds(check["cpu"]), megabytes(check["rss"])),
                   "%s slower" % times(speedup), "", None)


def bench_static(report, args, flows, figures, reps, runs):
    """The same `check`, built with the Swift runtime linked in (informative: targets are
    judged on the default build, the one `swift build` and the build plugin make)."""
    report.section("the same, built with `swift build -c release --static-swift-stdlib` (informative)")
    for states, path in flows[1:]:
        size, check, floor = figures[states]
        static = measure([args.flowspec_static, "check", path], reps)
        report.row("check CPU, %s, static" % megabytes(size), seconds(static["cpu"]),
                   "libyaml loop %s; default build %s" % (seconds(floor["cpu"]), seconds(check["cpu"])),
                   times(static["cpu"] / max(floor["cpu"], 1e-9)), "", None)
        report.row("check peak RSS, %s, static" % megabytes(size), megabytes(static["rss"]),
                   "default build %s" % megabytes(check["rss"]), "%s file" % times(static["rss"] / size), "", None)
    app = [args.flowspec_static, "check", os.path.join(ROOT, "specs", "app.yaml")]
    default = [args.flowspec, "check", os.path.join(ROOT, "specs", "app.yaml")]
    spawn_wall(app)
    spawn_wall(default)
    walls = {"static": [], "default": []}
    for _ in range(runs):  # interleaved, so that noise hits both alike
        walls["static"].append(spawn_wall(app))
        walls["default"].append(spawn_wall(default))
    static_ms, default_ms = (statistics.median(walls[k]) for k in ("static", "default"))
    report.row("check specs/app.yaml, median wall, static", ms(static_ms), "default build %s" % ms(default_ms),
               times(static_ms / default_ms), "", None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flowspec", required=True)
    parser.add_argument("--flowspec-static", help="flowspec built with --static-swift-stdlib")
    parser.add_argument("--flowspec-lsp", help="flowspec-lsp, the language server")
    parser.add_argument("--floor", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    args.flowspec, args.floor, args.work = (os.path.abspath(p) for p in (args.flowspec, args.floor, args.work))
    if args.flowspec_static:
        args.flowspec_static = os.path.abspath(args.flowspec_static)
    if args.flowspec_lsp:
        args.flowspec_lsp = os.path.abspath(args.flowspec_lsp)

    if args.quick:
        flow_states = [641, 6410, 32051]           # about 0.1, 1 and 5 MB
        reps, app_runs = 3, 40
        shapes = [(50, 20), (5000, 500)]
        compile_reps = 1
        dispatch_shapes, dispatch_events = [(5000, 20), (5000, 500)], 1_000_000
        chain_sizes, scc_sizes = (3000, 30000), (2000, 20000)
        shape_sizes = (2000, 20000)
    else:
        flow_states = [6410, 64102, 320512]        # about 1, 10 and 50 MB
        reps, app_runs = 5, 200
        shapes = [(50, 20), (50, 500), (500, 20), (500, 500), (5000, 20), (5000, 500)]
        compile_reps = 3
        dispatch_shapes, dispatch_events = [(5000, 20), (5000, 500)], 10_000_000
        chain_sizes, scc_sizes = (30000, 300000), (4000, 40000)
        shape_sizes = (10000, 100000)

    started = time.time()
    print("bench: generating inputs into %s" % os.path.relpath(args.work, ROOT), file=sys.stderr, flush=True)
    flows = [(n, make_input(args.work, "flow", n)) for n in flow_states]
    for kind, sizes in [("chain", chain_sizes), ("scc", scc_sizes)] + [(k, shape_sizes) for k, _, _ in FINDING_SHAPES]:
        for n in sizes:
            make_input(args.work, kind, n)

    report = Report()
    figures = bench_read(report, args, flows, reps)
    bench_app(report, args, app_runs)
    if args.flowspec_static:
        bench_static(report, args, flows, figures, reps, app_runs)
    graphs = bench_graphs(report, args, chain_sizes, scc_sizes, reps)
    bench_shapes(report, args, shape_sizes, reps)
    bench_formats(report, args, shape_sizes[1], reps)
    bench_many_machines(report, args, 10_000 if args.quick else 100_000, reps)
    bench_many_files(report, args, 500 if args.quick else 2000, reps)
    bench_runs(report, args, (1000, 2000), reps)
    bench_pyyaml(report, args, flows, figures, graphs, 3)
    codegen = bench_codegen(report, args, shapes, compile_reps, dispatch_shapes, dispatch_events)
    bench_nested(report, args, codegen, reps, dispatch_events)
    bench_paths(report, args, (500, 5000) if args.quick else (5000, 50000), flow_states[0], reps)
    bench_diff(report, args, flows[1][1], reps)
    bench_properties(report, args, (2500, 5000), reps)
    bench_import(report, args, flows[0][1], reps)
    bench_import_scaling(report, args, 2_000 if args.quick else 20_000, reps)
    bench_hostile(report, args, reps)
    bench_export(report, args, flows[0][1], flows[1][1], reps)
    if args.flowspec_lsp:
        bench_lsp(report, args, flows[0][1])

    swift = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout.splitlines()
    swift = swift[0] if swift else "swiftc ?"
    libyaml = subprocess.run(["pkg-config", "--modversion", "yaml-0.1"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "?"
    header = ("flowspec benchmark (%s) — %s, commit %s — %d-core %s, load %.1f — %s, libyaml %s, Python %s — %.0f s"
              % ("--quick" if args.quick else "full", datetime.date.today().isoformat(), commit, os.cpu_count(),
                 platform.system(), load, swift.replace("Swift version ", "Swift ").split(" (")[0],
                 libyaml or "?", platform.python_version(), time.time() - started))
    print()
    report.print(header)


if __name__ == "__main__":
    main()
