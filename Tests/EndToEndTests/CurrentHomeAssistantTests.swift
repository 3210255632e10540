import Testing

/// `RealHomeAssistantTests` and `IntegrityHomeAssistantTests` against the current Home Assistant
/// release, in its Debian testing root (scripts/homeassistant-current.sh): the same entity ids,
/// names, types and states as on the oldest, and nothing in its log for the user to fix. Outside CI, a machine without the root skips
/// these rather than spend minutes making it; CI makes it.
@Suite(
    .serialized,
    .enabled(
        if: HomeAssistantRelease.currentRuns,
        "the current Home Assistant's root is not made: `sh scripts/homeassistant-current.sh` makes it (a few minutes, once)"
    )
)
struct CurrentHomeAssistantTests {
    let tests = RealHomeAssistantTests(.current)
    let integrity = IntegrityHomeAssistantTests(.current)

    @Test func aReplayShowsTheDeviceWithTheRightStates() throws {
        try tests.aReplayShowsTheDeviceWithTheRightStates()
    }

    @Test func aKilledRunMakesTheEntitiesUnavailable() throws {
        try tests.aKilledRunMakesTheEntitiesUnavailable()
    }

    @Test func aRestartedHomeAssistantGetsTheEntitiesBack() throws {
        try tests.aRestartedHomeAssistantGetsTheEntitiesBack()
    }

    @Test func theAlarmIsOnAndItsButtonAnswersIt() throws {
        try tests.theAlarmIsOnAndItsButtonAnswersIt()
    }

    @Test func theOwnTracksTrackerFollowsTheReceiverOutOfARegion() throws {
        try tests.theOwnTracksTrackerFollowsTheReceiverOutOfARegion()
    }

    @Test func mqttAndHomeAssistantFollowTheJammerAndTheSpoofer() throws {
        try integrity.mqttAndHomeAssistantFollowTheJammerAndTheSpoofer()
    }
}
