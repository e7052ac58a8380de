// Runs XState configs in XState v5, an engine flowspec did not write: those `flowspec export
// --format xstate` wrote, for the export's engine tests (XStateExportTests), and configs others
// wrote, beside the export of their import (ImportOthersTests).
//
// XState itself is not part of flowspec: `FLOWSPEC_XSTATE` names a build of it that `require`
// loads (for example node_modules/xstate/dist/xstate.cjs.js, or the UMD build), else
// `require("xstate")` must find one.
//
// Reads a JSON list of runs from the file named by its argument. Each run is {"key", "config",
// "steps"}, the config as text (so that its states keep their order); a step is
// ["event", NAME], ["condition", NAME, true|false] (a condition of the spec; those before the
// first input are its values at the start), ["timeout", STATE] (the timer that STATE's timeout
// armed fires now; with null for STATE, the first active state's own, as `simulate`'s
// `@timeout`) or ["wait", SECONDS] (time passes, and each timer fires when it is due). Prints
// one line per input:
//
//     KEY|INPUT -> STATES | effects: E1, E2
//
// STATES are the active states the spec can be in (those with `meta.flowspec.kind`; in a config
// flowspec did not write, its atomic states, by their paths of keys), in document order;
// effects are the named actions the step ran. The guards and actions the app implements are
// implemented here as docs/interop.md describes them: a condition is the value the run set;
// "flowspec.when" tests conditions and a retry count; "flowspec.retry.count" and
// "flowspec.retry.reset" keep the counts.
//
// Time is virtual: the clock fires only when a wait step lets time pass; a timeout step takes
// the engine's own pending delayed event for that state out of its scheduler and delivers it
// now.

"use strict";
const fs = require("fs");

const XState = require(process.env.FLOWSPEC_XSTATE || "xstate");

/// Every name used as a guard or an action in a config.
function namesIn(config) {
  const guards = new Set();
  const actions = new Set();
  const visitTransition = (transition) => {
    if (typeof transition !== "object" || transition === null) return;
    if (typeof transition.guard === "string") guards.add(transition.guard);
    for (const action of transition.actions || []) visitAction(action);
  };
  const visitAction = (action) => {
    if (typeof action === "string") actions.add(action);
    else if (action && typeof action.type === "string") actions.add(action.type);
  };
  const visitTransitions = (value) => {
    for (const transition of Array.isArray(value) ? value : [value]) visitTransition(transition);
  };
  const visitState = (state) => {
    for (const action of state.entry || []) visitAction(action);
    for (const action of state.exit || []) visitAction(action);
    for (const value of Object.values(state.on || {})) visitTransitions(value);
    for (const value of Object.values(state.after || {})) visitTransitions(value);
    if (state.always) visitTransitions(state.always);
    for (const child of Object.values(state.states || {})) visitState(child);
  };
  visitState(config);
  return { guards, actions };
}

function run(spec, out) {
  const config = JSON.parse(spec.config);
  const steps = spec.steps.slice();
  const conditions = {};
  while (steps.length && steps[0][0] === "condition") {
    const [, name, value] = steps.shift();
    conditions[name] = value;
  }
  let effects = [];
  // The retry counts live in the context, changed with `assign`: XState goes on taking
  // eventless transitions only while a step changes the snapshot, so a choice state that
  // retries itself needs its count there. A count is its value if it was counted since the
  // flow last entered an input or terminal state (the current epoch), else 0.
  const count = (context, slot) => {
    const retries = context.flowspecRetries || {};
    return retries[slot] && retries[slot].epoch === (context.flowspecEpoch || 0) ? retries[slot].count : 0;
  };

  const { guards, actions } = namesIn(config);
  const guardImplementations = {
    "flowspec.when": ({ context }, params) =>
      (params.if === undefined || conditions[params.if] === true) &&
      (params.unless === undefined || conditions[params.unless] !== true) &&
      (params.below === undefined || count(context, params.retry) < params.below) &&
      (params.atLeast === undefined || count(context, params.retry) >= params.atLeast),
  };
  for (const name of guards) {
    if (!(name in guardImplementations)) guardImplementations[name] = () => conditions[name] === true;
  }
  const actionImplementations = {
    "flowspec.retry.count": XState.assign(({ context }, params) => ({
      flowspecRetries: {
        ...context.flowspecRetries,
        [params.retry]: { count: count(context, params.retry) + 1, epoch: context.flowspecEpoch || 0 },
      },
    })),
    "flowspec.retry.reset": XState.assign(({ context }) => ({ flowspecEpoch: (context.flowspecEpoch || 0) + 1 })),
  };
  for (const name of actions) {
    if (!(name in actionImplementations)) actionImplementations[name] = () => effects.push(name);
  }
  // A virtual clock: it fires only when a wait step lets time pass, or a timeout step
  // delivers a timer's event itself.
  let now = 0;
  let nextTimer = 1;
  const timers = new Map();
  const clock = {
    setTimeout: (callback, ms) => {
      timers.set(nextTimer, { callback, due: now + ms, id: nextTimer });
      return nextTimer++;
    },
    clearTimeout: (id) => timers.delete(id),
  };
  /// Lets `ms` pass: each timer fires when it is due, in the order they are due.
  const wait = (ms) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers.values()]
        .filter((timer) => timer.due <= until)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      timers.delete(due.id);
      now = due.due;
      due.callback();
    }
    now = until;
  };
  const machine = XState.createMachine(config).provide({
    guards: guardImplementations,
    actions: actionImplementations,
  });
  const actor = XState.createActor(machine, { clock });
  let failure = null;
  actor.subscribe({ error: (error) => (failure = String(error)) });
  const starting = actor.getSnapshot();
  if (starting.status === "error") failure = String(starting.error);
  actor.start();

  const hasKind = (node) => Boolean(node.meta && node.meta.flowspec && node.meta.flowspec.kind);
  const activeLeaves = () =>
    (actor.getSnapshot()._nodes || [])
      .filter((node) => (foreign ? node.type === "atomic" || node.type === "final" : hasKind(node)))
      .sort((a, b) => order[a.id] - order[b.id]);
  const line = (label) => {
    const states = activeLeaves().map((node) => (foreign ? node.path.join(".") : node.key));
    out.push(
      `${spec.key}|${label} -> ${states.join(", ")} | effects: ${effects.join(", ") || "-"}` +
        (failure ? ` | error: ${failure}` : "")
    );
    effects = [];
  };
  // Document order, and each state's node by its key (the spec's name).
  const nodes = {};
  const order = {};
  const visit = (node) => {
    nodes[node.key] = node;
    order[node.id] = Object.keys(order).length;
    for (const child of Object.values(node.states || {})) visit(child);
  };
  visit(machine.root);
  // A config flowspec did not write has no kinds: its atomic states are the leaves, named by
  // their paths of keys.
  const foreign = !Object.values(nodes).some(hasKind);
  /// Delivers the pending delayed event of the state `key` now, as the scheduler would.
  const fire = (key) => {
    const scheduled = actor.system.getSnapshot()._scheduledEvents;
    for (const entry of Object.values(scheduled)) {
      const type = entry.event.type;
      if (nodes[key] && type.startsWith("xstate.after.") && type.endsWith("." + nodes[key].id)) {
        actor.system.scheduler.cancel(entry.source, entry.id);
        actor.send(entry.event);
        return;
      }
    }
  };

  line("start");
  for (const step of steps) {
    if (step[0] === "condition") {
      conditions[step[1]] = step[2];
      continue;
    }
    if (step[0] === "timeout" && step[1] === null) {
      const first = activeLeaves()[0];
      if (first) fire(first.key);
      line("@timeout");
    } else if (step[0] === "wait") {
      wait(step[1] * 1000);
      line(`@wait(${step[1]})`);
    } else if (step[0] === "timeout") {
      fire(step[1]);
      line(`@timeout(${step[1]})`);
    } else {
      actor.send({ type: step[1] });
      line(step[1]);
    }
  }
  actor.stop();
}

const out = [];
for (const spec of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  if (process.argv.length < 4 || spec.key.startsWith(process.argv[3])) run(spec, out);
}
process.stdout.write(out.join("\n") + "\n");
