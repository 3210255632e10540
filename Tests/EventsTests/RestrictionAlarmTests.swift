import Testing

@testable import Events
@testable import Fences

/// Every restriction a vehicle breaks raises the alarm with `--alarm` as `too_low` does, and its
/// flag goes through the event line and back.
@Suite struct RestrictionAlarmTests {
    @Test(arguments: VehicleRestrictionKind.allCases)
    func eachBrokenRestrictionRaisesTheAlarm(restriction: VehicleRestrictionKind) throws {
        let fences = try AlarmKeeperTests.set()
        let approach = AlarmKeeperTests.event(.approach, fence: 1, second: 1, restrictions: [restriction])
        #expect(AlarmPolicy(builtIn: true).condition(of: approach, fences: fences, anchorWatch: false) == .momentary)
        #expect(AlarmPolicy().condition(of: approach, fences: fences, anchorWatch: false) == nil, "without --alarm")
        let enter = AlarmKeeperTests.event(.enter, fence: 1, second: 1, restrictions: [restriction])
        #expect(AlarmPolicy(builtIn: true).condition(of: enter, fences: fences, anchorWatch: false) == .inside)
        let plain = AlarmKeeperTests.event(.approach, fence: 1, second: 1)
        #expect(AlarmPolicy(builtIn: true).condition(of: plain, fences: fences, anchorWatch: false) == nil)
    }

    @Test func theFlagsOfAnEventLineComeBack() throws {
        let fences = try AlarmKeeperTests.set()
        let event = AlarmKeeperTests.event(.approach, fence: 1, second: 1, restrictions: [.weight, .clearance, .hgv])
        let line = event.json(fences: fences)
        #expect(line.contains(#""too_low":true,"too_heavy":true,"no_hgv":true,"distance""#), "\(line)")
        let record = try #require(EventRecord(json: line))
        #expect(Array(record.event.restrictions) == [.clearance, .weight, .hgv])
    }
}
