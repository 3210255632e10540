import Testing

@testable import Events
@testable import Fences

/// Option values are range-checked with a message naming the option; conversions of
/// what passes (or of anything else) cannot trap.
@Suite struct LimitsTests {
    @Test func eventSettingsNameTheOptionAndTheRange() {
        func problem(_ change: (inout EventSettings) -> Void) -> String? {
            var settings = EventSettings()
            change(&settings)
            return settings.problem?.description
        }
        #expect(problem { _ in } == nil)
        #expect(problem { $0.dwell = 1e300 } == "--dwell must be 0 to 1000000000 seconds, not 1e+300")
        #expect(problem { $0.dwell = .infinity } == "--dwell must be 0 to 1000000000 seconds, not inf")
        #expect(problem { $0.dwell = -1 } == "--dwell must be positive or 0 (0 to 1000000000 seconds), not -1")
        #expect(problem { $0.dwell = 0 } == nil)
        #expect(
            problem { $0.heartbeat = 1e300 }
                == "--heartbeat must be more than 0 and at most 1000000000 seconds, not 1e+300")
        #expect(problem { $0.heartbeat = 0 } == "--heartbeat must be more than 0 and at most 1000000000 seconds, not 0")
        #expect(problem { $0.stale = .nan } == "--stale must be more than 0 and at most 1000000000 seconds, not nan")
        #expect(problem { $0.hysteresis = 20_015_116 } == "--hysteresis must be 0 to 20015115 metres, not 20015116")
        #expect(problem { $0.approach = 1e-300 } == nil)
        #expect(problem { $0.exitConfirm = 256 } == "--exit-confirm must be 1 to 255, not 256")
        #expect(
            problem { $0.maxAccuracy = 0 } == "--max-accuracy must be more than 0 and at most 20015115 metres, not 0")
    }

    @Test func otherOptions() {
        #expect(
            Limits.replaySpeed(1e-300)?.description == "--speed must be 0.001 to 1000000 times real time, not 1e-300")
        #expect(Limits.replaySpeed(0.001) == nil && Limits.replaySpeed(1e6) == nil)
        #expect(Limits.simulateRate(50) == nil && Limits.simulateRate(51) != nil && Limits.simulateRate(1e-300) != nil)
        #expect(Limits.simulateSpeed(.infinity) != nil)
        #expect(Limits.execTimeout(1e300) != nil && Limits.execTimeout(10) == nil)
        #expect(Limits.execConcurrency(0) != nil && Limits.execConcurrency(256) == nil)
        #expect(Limits.recordDuration(-0.0) != nil)
        #expect(Limits.autobaudWindow(2.5) == nil)
    }

    @Test func conversionsClampInsteadOfTrapping() {
        #expect(Limits.milliseconds(1e300) == 1 << 53)
        #expect(Limits.milliseconds(-.infinity) == -(1 << 53))
        #expect(Limits.milliseconds(.nan) == 0)
        #expect(Limits.milliseconds(1.5) == 1500)
        #expect(Limits.int(1e19) == 1 << 53)
        #expect(Limits.maxMetres == 20_015_115)
    }
}
