import Dispatch
import Events
import Platform

/// What an alarm does again and again while it sounds (docs/running.md, "Alarms"): the bell, the
/// spoken sentence. Started by an `alarm` event, stopped by the answer or by an `alarm_cleared`
/// that leaves no alarm; a timer on a queue of its own, so the engine never waits for it.
final class AlarmRepeater: @unchecked Sendable {
    let interval: Double
    private let queue = DispatchQueue(label: "gpsfence.alarm-repeat")
    private let timer = Locked<DispatchSourceTimer?>(nil)

    init(interval: Double) { self.interval = interval }

    /// Follows the alarm's events: `action` runs now and every `interval` seconds while it sounds.
    func follow(_ event: GeofenceEvent, action: @escaping @Sendable () -> Void) {
        switch event.payload {
        case .alarm: start(action)
        case .alarmAcknowledged(let alarm, by: _), .alarmCleared(let alarm):
            if alarm.status != .active { stop() }
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
            .integrity:
            break
        }
    }

    /// Whether it sounds now.
    var isSounding: Bool { timer.withLock { $0 != nil } }

    private func start(_ action: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now(), repeating: interval)
        source.setEventHandler(handler: action)
        timer.withLock { current in
            current?.cancel()
            current = source
        }
        source.resume()
    }

    func stop() {
        timer.withLock { current in
            current?.cancel()
            current = nil
        }
    }
}
