// What running a flow through FlowDriver costs per input, against the bare machine
// (Benchmarks/run.sh), on the code generated from specs/app.yaml:
//
//     swiftc -O -wmo -parse-as-library -I RUNTIME -L RUNTIME -lFlowSpecRuntime App.swift DriverBench.swift -o driver
//     ./driver 100000   # prints "driver <ns> machine <ns>" (per input)
//
// Each input changes the state of LaunchAuth between the login screen and signing in, whose
// 10 s timeout and sign-in work the driver arms and starts on entry and cancels on leaving:
// the driver's whole path (record, effects, timer, work), while the machine only steps.

import FlowSpecRuntime

@main
struct DriverBench {
    @MainActor
    static func main() async {
        let inputs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
        let driver = FlowDriver(LaunchAuth.self)
        // Sign-in work that answers only when cancelled: one task started and cancelled a visit.
        driver.work(in: .authLoading) {
            try? await Task.sleep(for: .seconds(3600))
            return .loginFailed
        }
        driver.start()
        for event in [LaunchAuth.Event.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession] {
            driver.send(event)
        }
        precondition(driver.state == .unauthenticated, "the benchmark starts on the login screen")
        var machine = driver.machine
        let clock = ContinuousClock()
        let driverTime = clock.measure {
            for _ in 0..<inputs / 2 {
                driver.send(.loginAttempted)
                driver.send(.loginFailed)
            }
        }
        let machineTime = clock.measure {
            for _ in 0..<inputs / 2 {
                machine.send(.loginAttempted)
                machine.send(.loginFailed)
            }
        }
        precondition(driver.state == machine.state, "the driver and the machine end in the same state")
        driver.stop()
        print("driver", nanoseconds(driverTime) / Double(inputs), "machine", nanoseconds(machineTime) / Double(inputs))
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
