// Reducer dispatch speed of the code `flowspec gen` writes (Benchmarks/run.sh).
//
// Compiled together with the generated file of the machine `Big`:
//
//     swiftc -O -wmo -parse-as-library -I RUNTIME -L RUNTIME -lFlowSpecRuntime Big.swift DispatchDriver.swift -o dispatch
//
// where RUNTIME holds FlowSpecRuntime built as a static library with its module (bench.py does this).
//     ./dispatch 10000000   # prints "send <ns> cpu <ns> floor <ns> equal <ns> ..." (per event)
//
// Pre-generates the events (a fixed-seed SplitMix64 over `Event.allCases`), warms the
// machine up (the table form decodes its tables on first use), then times the loop of
// `Machine.send` with `ContinuousClock`, five times, and prints the median (and the median
// process CPU time, which a busy machine inflates less). The floor is the same loop reading
// each event's bytes instead of sending it; `equal` is the loop comparing each event with
// the first one (`Event ==`).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@inline(never)
func sendAll(_ events: [Big.Event], _ machine: inout Big.Machine) -> Int {
    var effects = 0
    for event in events { effects &+= machine.send(event).count }
    return effects
}

/// The floor: the same walk over the events, reading each one's bytes instead of sending it.
@inline(never)
func touchAll(_ events: [Big.Event]) -> Int {
    var sum = 0
    for event in events { sum &+= withUnsafeBytes(of: event) { Int($0[0]) } }
    return sum
}

/// `Event ==`, which app code uses as well (`flow.state == .home` is the same for `State`).
@inline(never)
func countMatches(_ events: [Big.Event], _ first: Big.Event) -> Int {
    var matches = 0
    for event in events where event == first { matches &+= 1 }
    return matches
}

/// CPU time of this process, for comparison with the wall time on a busy machine.
func processCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func nanosecondsPerEvent(_ times: [Duration], _ count: Int) -> Double {
    let median = times.sorted()[times.count / 2]
    let (seconds, attoseconds) = median.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
}

@main
struct DispatchDriver {
    static func main() {
        let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000_000 : 10_000_000
        let all = Big.Event.allCases
        var random = SplitMix64(state: 0x5EED_F10E)
        var generated: [Big.Event] = []
        generated.reserveCapacity(count)
        for _ in 0..<count {
            generated.append(all[Int(random.next() % UInt64(all.count))])
        }
        let events = generated

        var (machine, _) = Big.Machine.start()
        var effects = sendAll(Array(events.prefix(10_000)), &machine)  // warm-up: tables decoded

        let clock = ContinuousClock()
        var sendTimes: [Duration] = []
        var sendCPUTimes: [Duration] = []
        var floorTimes: [Duration] = []
        var equalTimes: [Duration] = []
        var matches = 0
        for _ in 0..<5 {
            let start = clock.now
            let cpuStart = processCPUTime()
            effects &+= sendAll(events, &machine)
            sendCPUTimes.append(processCPUTime() - cpuStart)
            sendTimes.append(clock.now - start)
            let floorStart = clock.now
            matches &+= touchAll(events)
            floorTimes.append(clock.now - floorStart)
            let equalStart = clock.now
            matches &+= countMatches(events, events[0])
            equalTimes.append(clock.now - equalStart)
        }
        let send = nanosecondsPerEvent(sendTimes, count)
        let sendCPU = nanosecondsPerEvent(sendCPUTimes, count)
        let floor = nanosecondsPerEvent(floorTimes, count)
        let equal = nanosecondsPerEvent(equalTimes, count)
        print(
            "send \(send) cpu \(sendCPU) floor \(floor) equal \(equal) state \(machine.state.rawValue) effects \(effects) matches \(matches)"
        )
    }
}
