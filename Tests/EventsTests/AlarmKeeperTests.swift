import FenceBuilders
import NMEA
import Testing

@testable import Events
@testable import Fences

/// The latched alarm's rules (docs/running.md, "Alarms"): what raises it, what an answer and the
/// end of its condition do, and when an answered alarm sounds again.
@Suite struct AlarmKeeperTests {
    /// The anchor circle (index 0, as the run lays it over the file), a quay whose exit raises an
    /// alarm (1) and a bridge (2).
    static func set() throws -> FenceSet {
        var layers = FenceLayers(
            main: try fenceSet(
                collection(
                    circleFeature(id: #""quay""#, lon: 16.5, lat: 43.5, radius: 40, extra: #","alarm":["exit"]"#),
                    circleFeature(id: #""bridge""#, lon: 16.6, lat: 43.5, radius: 40))))
        layers.anchor = LayerCircle(
            layer: .anchor, id: LayerCircle.anchorID, name: "Anchor",
            circle: CircleShape(lat: 43.5, lon: 16.4, radius: 40))
        let set = layers.combined().set
        let order = (0..<set.count).map { set.ids[$0].text }
        precondition(order == ["quay", "bridge", "anchor"], "\(order)")
        return set
    }

    static func event(
        _ kind: GeofenceEvent.Kind, fence: Int? = nil, second: Int64, restrictions: BrokenRestrictions = []
    )
        -> GeofenceEvent
    {
        let payload: GeofenceEvent.Payload =
            switch kind {
            case .enter: .enter(GeofenceEvent.Enter(fence: fence ?? 0, initial: false, restrictions: restrictions))
            case .exit: .exit(GeofenceEvent.Exit(fence: fence ?? 0))
            case .approach:
                .approach(GeofenceEvent.Approach(fence: fence ?? 0, distance: 100, eta: 10, restrictions: restrictions))
            case .speeding: .speeding(GeofenceEvent.Speeding(fence: fence ?? 0, speed: 20, limit: 10))
            case .fixLost: .fixLost
            case .fixAcquired: .fixAcquired
            case .integrity:
                .integrity(
                    GeofenceEvent.Integrity(
                        state: fence == 1 ? .jammed : .ok, reasons: fence == 1 ? IntegrityReasons([.cn0Drop]) : [],
                        since: UTCTime(millisecondsSinceEpoch: 1_780_000_000_000 + second * 1000)))
            case .dwell, .visit, .cross, .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered, .error,
                .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
                preconditionFailure("\(kind) is not raised in these tests")
            }
        return GeofenceEvent(payload, time: UTCTime(millisecondsSinceEpoch: 1_780_000_000_000 + second * 1000))
    }

    /// `jammed` during an anchor watch (or with `--alarm`) raises an alarm with cause `integrity`,
    /// which `ok` clears once answered; without either, it raises none.
    @Test func anUnreliablePositionRaisesDuringAnAnchorWatch() throws {
        let fences = try Self.set()
        // `fence: 1` stands for `jammed` in `event`, anything else for `ok`.
        let jammed = Self.event(.integrity, fence: 1, second: 1)
        let ok = Self.event(.integrity, second: 30)
        var watch = AlarmKeeper(policy: AlarmPolicy(), saved: nil)
        let raised = watch.respond(to: [jammed], fences: fences, anchorWatch: true, anchorDistance: nil)
        #expect(raised.map(\.kind) == [.alarm])
        #expect(raised.first?.cause == AlarmCause(eventID: jammed.id(fences: fences), kind: .integrity))
        _ = watch.acknowledge(by: .terminal, at: UTCTime(millisecondsSinceEpoch: 1_780_000_010_000), fences: fences)
        #expect(
            watch.respond(to: [ok], fences: fences, anchorWatch: true, anchorDistance: nil).map(\.kind) == [
                .alarmCleared
            ])
        var alarm = AlarmKeeper(policy: AlarmPolicy(builtIn: true), saved: nil)
        #expect(
            alarm.respond(to: [jammed], fences: fences, anchorWatch: false, anchorDistance: nil).map(\.kind) == [
                .alarm
            ])
        var none = AlarmKeeper(policy: AlarmPolicy(), saved: nil)
        #expect(none.respond(to: [jammed], fences: fences, anchorWatch: false, anchorDistance: nil).isEmpty)
    }

    @Test func theAnchorsExitRaisesAndItsEnterClearsAnAnsweredAlarm() throws {
        let fences = try Self.set()
        var keeper = AlarmKeeper(policy: AlarmPolicy(builtIn: true), saved: nil)
        let exit = Self.event(.exit, fence: 2, second: 1)
        let raised = keeper.respond(to: [exit], fences: fences, anchorWatch: true, anchorDistance: 52)
        #expect(raised.map(\.kind) == [.alarm])
        #expect(raised.first?.cause == AlarmCause(eventID: exit.id(fences: fences), kind: .exit))
        #expect(raised.first?.alarmStatus == .active)
        #expect(raised.first?.anchorDistance == 52)
        #expect(raised.first?.fence == 2)
        // Still outside on the next exit-free fixes: nothing new while it sounds.
        #expect(keeper.respond(to: [exit], fences: fences, anchorWatch: true, anchorDistance: 60).isEmpty)
        let answer = keeper.acknowledge(by: .terminal, at: exit.time, fences: fences)
        #expect(answer?.kind == .alarmAcknowledged)
        #expect(answer?.acknowledgedBy == .terminal)
        #expect(answer?.alarmStatus == .acknowledged)
        #expect(keeper.acknowledge(by: .command, at: exit.time, fences: fences) == nil, "answered twice")
        // The same condition again (a second exit without an enter) stays silent.
        #expect(keeper.respond(to: [exit], fences: fences, anchorWatch: true, anchorDistance: 70).isEmpty)
        let back = keeper.respond(
            to: [Self.event(.enter, fence: 2, second: 5)], fences: fences, anchorWatch: true, anchorDistance: 30)
        #expect(back.map(\.kind) == [.alarmCleared])
        #expect(back.first?.alarmStatus == .clear)
        #expect(keeper.latch == nil)
        // Cleared, it comes back: it sounds again.
        let again = keeper.respond(
            to: [Self.event(.exit, fence: 2, second: 9)], fences: fences, anchorWatch: true, anchorDistance: 50)
        #expect(again.map(\.kind) == [.alarm])
    }

    @Test func anUnansweredAlarmStaysLatchedWhenItsConditionEnds() throws {
        let fences = try Self.set()
        var keeper = AlarmKeeper(policy: AlarmPolicy(builtIn: true), saved: nil)
        _ = keeper.respond(
            to: [Self.event(.fixLost, second: 1)], fences: fences, anchorWatch: true, anchorDistance: nil)
        let back = keeper.respond(
            to: [Self.event(.fixAcquired, second: 3)], fences: fences, anchorWatch: true, anchorDistance: nil)
        #expect(back.map(\.kind) == [.alarmCleared])
        #expect(back.first?.alarmStatus == .active, "cleared before anyone answered: it must still sound")
        #expect(keeper.latch?.unanswered == true)
        let answer = keeper.acknowledge(by: .mqtt, at: back[0].time, fences: fences)
        #expect(answer?.alarmStatus == .clear)
        #expect(keeper.latch == nil)
    }

    static let dragged = GeofenceEvent.Location(latitude: 43.501, longitude: 16.4)

    @Test func anAnsweredDragSoundsAgainWhenTheDistanceDoubles() throws {
        let fences = try Self.set()
        var keeper = AlarmKeeper(policy: AlarmPolicy(builtIn: true), saved: nil)
        let exit = Self.event(.exit, fence: 2, second: 1)
        _ = keeper.respond(to: [exit], fences: fences, anchorWatch: true, anchorDistance: 50)
        #expect(
            keeper.anchorDistance(120, at: exit.time, location: Self.dragged, fences: fences) == nil, "sounding already"
        )
        _ = keeper.acknowledge(by: .terminal, at: exit.time, fences: fences)
        #expect(keeper.anchorDistance(99, at: exit.time, location: Self.dragged, fences: fences) == nil)
        let worse = keeper.anchorDistance(
            100, at: Self.event(.exit, second: 30).time, location: Self.dragged, fences: fences)
        #expect(worse?.kind == .alarm)
        #expect(worse?.alarmStatus == .active)
        #expect(worse?.anchorDistance == 100)
        // Where the boat is when it sounds again, as the first alarm said (MQTT, hooks, webhooks).
        #expect(worse?.location == Self.dragged)
        #expect(worse.map { keeper.latch?.raisedAt == $0.time } == true, "status says when it sounded again")
        _ = keeper.acknowledge(by: .terminal, at: exit.time, fences: fences)
        #expect(
            keeper.anchorDistance(150, at: exit.time, location: Self.dragged, fences: fences) == nil,
            "the next step is 200 m")
        #expect(keeper.anchorDistance(200, at: exit.time, location: Self.dragged, fences: fences) != nil)
    }

    @Test func whatRaisesIt() throws {
        let fences = try Self.set()
        let builtIn = AlarmPolicy(builtIn: true)
        let tooLow = Self.event(.approach, fence: 1, second: 1, restrictions: [.clearance])
        #expect(builtIn.condition(of: tooLow, fences: fences, anchorWatch: false) == .momentary)
        #expect(
            builtIn.condition(of: Self.event(.approach, fence: 1, second: 1), fences: fences, anchorWatch: false) == nil
        )
        #expect(builtIn.condition(of: Self.event(.fixLost, second: 1), fences: fences, anchorWatch: true) == .noFix)
        #expect(builtIn.condition(of: Self.event(.fixLost, second: 1), fences: fences, anchorWatch: false) == nil)
        // The fence's own `"alarm": ["exit"]`, without --alarm; its enter does not.
        let none = AlarmPolicy()
        #expect(
            none.condition(of: Self.event(.exit, fence: 0, second: 1), fences: fences, anchorWatch: false) == .outside)
        #expect(none.condition(of: Self.event(.enter, fence: 0, second: 1), fences: fences, anchorWatch: false) == nil)
        #expect(none.condition(of: Self.event(.exit, fence: 2, second: 1), fences: fences, anchorWatch: true) == nil)
        let listed = AlarmPolicy(types: [.speeding])
        #expect(
            listed.condition(of: Self.event(.speeding, fence: 1, second: 1), fences: fences, anchorWatch: false)
                == .momentary)
        #expect(!AlarmPolicy.isSelectable(.alarmCleared))
    }

    @Test func aSavedAlarmThatSoundsIsSaidAgainAtTheStart() throws {
        let fences = try Self.set()
        let latch = AlarmLatch(
            cause: AlarmCause(eventID: "abc", kind: .exit), fenceID: .string("anchor"), condition: .outside,
            unanswered: true, raisedAt: UTCTime(millisecondsSinceEpoch: 0), distance: 48)
        let keeper = AlarmKeeper(policy: AlarmPolicy(builtIn: true), saved: latch)
        let said = keeper.announcement(at: UTCTime(millisecondsSinceEpoch: 5000), fences: fences)
        #expect(said?.kind == .alarm)
        #expect(said?.fence == 2)
        #expect(said?.cause?.eventID == "abc")
        var answered = latch
        answered.unanswered = false
        #expect(
            AlarmKeeper(policy: AlarmPolicy(), saved: answered).announcement(at: latch.raisedAt, fences: fences) == nil)
    }
}

/// What an alarm's event says, for the assertions above.
extension GeofenceEvent {
    fileprivate var alarmSaid: (alarm: Alarm, by: AlarmAcknowledger?)? {
        switch payload {
        case .alarm(let alarm), .alarmCleared(let alarm): (alarm, nil)
        case .alarmAcknowledged(let alarm, let who): (alarm, who)
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
            .integrity:
            nil
        }
    }
    fileprivate var cause: AlarmCause? { alarmSaid?.alarm.cause }
    fileprivate var alarmStatus: AlarmStatus? { alarmSaid?.alarm.status }
    fileprivate var anchorDistance: Double? { alarmSaid?.alarm.anchorDistance }
    fileprivate var acknowledgedBy: AlarmAcknowledger? { alarmSaid?.by }
}
