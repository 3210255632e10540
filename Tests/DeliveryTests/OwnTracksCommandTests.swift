import Foundation
import Testing

@testable import Delivery
@testable import Fences

/// OwnTracks `setWaypoints` commands as the apps and the Recorder write them (docs/mqtt.md).
@Suite struct OwnTracksCommandTests {
    func parse(_ text: String) -> OwnTracksCommand.ParseResult { OwnTracksCommand.parse(Array(text.utf8)) }

    func region(
        _ id: String, _ lat: Double, _ lon: Double, _ radius: Double, name: String? = nil, created: Int64? = nil
    ) -> LayerCircle {
        LayerCircle(
            layer: .ownTracks, id: id, name: name, circle: CircleShape(lat: lat, lon: lon, radius: radius),
            created: created)
    }

    @Test func waypointsObjectOrBareArrayStringNumbersAndTstAsTheId() throws {
        let wrapped = parse(
            #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Paris is lovely","lat":"48.858330","lon":"2.295130","rad":"50","tst":"1385997757","rid":"f7676c"}]}}"#
        )
        #expect(
            wrapped
                == .command(
                    OwnTracksCommand(
                        merges: false,
                        changes: [
                            .set(
                                region(
                                    "f7676c", 48.85833, 2.29513, 50, name: "Paris is lovely",
                                    created: 1_385_997_757_000))
                        ],
                        refused: [])))
        let bare = parse(
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"lat":1,"lon":2,"rad":3,"tst":1385997757}],"merge":true}"#
        )
        #expect(
            bare
                == .command(
                    OwnTracksCommand(
                        merges: true, changes: [.set(region("1385997757", 1, 2, 3, created: 1_385_997_757_000))],
                        refused: []))
        )
    }

    @Test func invalidCoordinatesDeleteAndABadRadiusIsRefused() throws {
        let result = parse(
            #"{"_type":"cmd","action":"setWaypoints","waypoints":{"waypoints":[{"rid":"a","lat":91,"lon":0,"rad":5},{"rid":"b","lon":0,"rad":5},{"rid":"c","lat":1,"lon":1,"rad":0},{"lat":1,"lon":1,"rad":5}],"merge":true}}"#
        )
        guard case .command(let command) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(command.merges)
        #expect(command.changes == [.delete("a"), .delete("b")])
        #expect(command.refused.count == 2)
        #expect(command.refused.map(\.index) == [2, 3])
        #expect(command.refused.map(\.problem) == [.radiusNotPositive(region: "c"), .noID])
    }

    @Test func otherActionsAndBrokenMessages() {
        #expect(parse(#"{"_type":"cmd","action":"reportLocation"}"#) == .otherAction(action: "reportLocation"))
        if case .problem = parse("not json") {} else { Issue.record("not JSON is a problem") }
        if case .problem = parse(#"{"_type":"location"}"#) {} else { Issue.record("not a cmd is a problem") }
        if case .problem = parse(#"{"_type":"cmd","action":"setWaypoints"}"#) {
        } else {
            Issue.record("no waypoints is a problem")
        }
    }

    @Test func replaceMergeAndDeleteKeepTheOrder() {
        let home = region("home", 1, 1, 10)
        let work = region("work", 2, 2, 10)
        let moved = region("home", 3, 3, 10)
        let merge = OwnTracksCommand(merges: true, changes: [.set(moved), .set(region("club", 4, 4, 5))], refused: [])
        #expect(merge.applied(to: [home, work]).map(\.id) == ["home", "work", "club"])
        #expect(merge.applied(to: [home, work]).first == moved)
        let replace = OwnTracksCommand(merges: false, changes: [.set(work)], refused: [])
        #expect(replace.applied(to: [home, work]) == [work])
        let delete = OwnTracksCommand(merges: true, changes: [.delete("home")], refused: [])
        #expect(delete.applied(to: [home, work]) == [work])
    }
}
