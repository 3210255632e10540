import NMEA
import Testing

@testable import Events
@testable import Fences

/// The state machine rules of docs/events.md, one at a time, on fixes placed at known distances from a
/// fence (docs/events.md).
@Suite struct EventEngineTests {
    static let centre = (lat: 47.3769, lon: 8.5417)
    static let start = UTCTime(millisecondsSinceEpoch: 1_770_113_700_000)  // 2026-02-03T10:15:00Z

    /// A fix `offset` metres east (negative: west) of the centre, `second` seconds after the start.
    static func fix(
        _ second: Double, _ offset: Double, north: Double = 0, accuracy: Double? = 4.5,
        speed: Double? = 10, track: Double? = 90
    ) -> Fix {
        let east = Geodesy.destination(
            lat: centre.lat, lon: centre.lon, bearing: offset < 0 ? 270 : 90, distance: abs(offset))
        let point = Geodesy.destination(
            lat: east.lat, lon: east.lon, bearing: north < 0 ? 180 : 0, distance: abs(north))
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: start.millisecondsSinceEpoch + Int64(second * 1000)),
            timeOfDay: TimeOfDay(milliseconds: 0), latitude: point.lat, longitude: point.lon, speed: speed,
            track: track, mode: .threeD, accuracy: accuracy)
    }

    static func circle(radius: Double, properties: String = "") -> String {
        """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"f","geometry":{"type":"Point",
        "coordinates":[\(centre.lon),\(centre.lat)]},"properties":{"radius":\(radius)\(properties.isEmpty ? "" : "," + properties)}}]}
        """
    }

    /// Runs the fixes and returns "type@second" for every event but `registered`.
    static func run(
        _ fences: String, _ fixes: [Fix], settings: EventSettings = EventSettings(),
        ticks: [Double] = []
    ) throws -> [String] {
        let engine = EventEngine(fences: try FenceSet.parse(fences), settings: settings)
        var out: [String] = []
        let record: (GeofenceEvent) -> Void = { event in
            guard event.kind != .registered else { return }
            let second = Double(event.time.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000
            out.append("\(event.kind.rawValue)@\(second == second.rounded() ? String(Int(second)) : String(second))")
        }
        var pendingTicks = ticks
        for fix in fixes {
            let second = Double(fix.time!.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000
            while let tick = pendingTicks.first, tick < second {
                engine.tick(UTCTime(millisecondsSinceEpoch: start.millisecondsSinceEpoch + Int64(tick * 1000)), record)
                pendingTicks.removeFirst()
            }
            engine.process(fix, record)
        }
        return out
    }

    @Test func enterIsImmediateAndExitNeedsTwoFixesBeyondTheHysteresis() throws {
        let fixes = [
            Self.fix(0, -60), Self.fix(1, -40), Self.fix(2, 0), Self.fix(3, 55), Self.fix(4, 58), Self.fix(5, 62),
            Self.fix(6, 61), Self.fix(7, 70),
        ]
        // r = 50: 55 and 58 are within the 10 m hysteresis; 62 is the 1st beyond, 61 the 2nd.
        #expect(try Self.run(Self.circle(radius: 50), fixes) == ["enter@1", "exit@6"])
    }

    @Test func aFixBackInsideResetsTheExitCount() throws {
        let fixes = [Self.fix(0, 0), Self.fix(1, 65), Self.fix(2, 40), Self.fix(3, 65), Self.fix(4, 66)]
        #expect(try Self.run(Self.circle(radius: 50), fixes) == ["enter@0", "exit@4"])
    }

    @Test func poorAccuracyWidensTheExitDistanceUpToTheCap() throws {
        // Accuracy 30 m: the exit distance is 30 m, so 75 m from the centre (25 m out) is not an exit.
        let vague = [
            Self.fix(0, 0, accuracy: 30), Self.fix(1, 75, accuracy: 30), Self.fix(2, 75, accuracy: 30),
            Self.fix(3, 85, accuracy: 30), Self.fix(4, 85, accuracy: 30),
        ]
        #expect(try Self.run(Self.circle(radius: 50), vague) == ["enter@0", "exit@4"])
        // Accuracy 90 m (usable, under 100): the cap of 50 m applies: 101 m from the centre exits.
        let capped = [Self.fix(0, 0, accuracy: 90), Self.fix(1, 101, accuracy: 90), Self.fix(2, 101, accuracy: 90)]
        #expect(try Self.run(Self.circle(radius: 50), capped) == ["enter@0", "exit@2"])
    }

    @Test func fixesWorseThanMaxAccuracyAreNotUsed() throws {
        let fixes = [Self.fix(0, -80), Self.fix(1, 0, accuracy: 150), Self.fix(2, 0, accuracy: 5)]
        #expect(try Self.run(Self.circle(radius: 50), fixes) == ["enter@2"])
    }

    @Test func initialEnterIsFlaggedAndCanBeTurnedOff() throws {
        let engine = EventEngine(fences: try FenceSet.parse(Self.circle(radius: 50)))
        var initial: Bool?
        engine.process(Self.fix(0, 0)) { if case .enter(let enter) = $0.payload { initial = enter.initial } }
        #expect(initial == true)
        var quiet = EventSettings()
        quiet.initial = false
        // Without the initial enter the fence is still inside: leaving it gives an exit.
        #expect(
            try Self.run(Self.circle(radius: 50), [Self.fix(0, 0), Self.fix(1, 70), Self.fix(2, 70)], settings: quiet)
                == ["exit@2"])
    }

    @Test func dwellOncePerVisitAndVisitOnlyForLongStays() throws {
        var fixes = (0...70).map { Self.fix(Double($0), 0) }
        fixes += [Self.fix(71, 80), Self.fix(72, 80)]
        fixes += [Self.fix(73, 0), Self.fix(74, 80), Self.fix(75, 80)]
        let events = try Self.run(Self.circle(radius: 50), fixes)
        #expect(events == ["enter@0", "dwell@60", "exit@72", "visit@72", "enter@73", "exit@75"])
    }

    @Test func perFenceSettingsOverrideTheDefaults() throws {
        let fences = Self.circle(radius: 50, properties: #""dwell":5,"hysteresis":30,"notify":["enter","dwell"]"#)
        let fixes =
            (0...6).map { Self.fix(Double($0), 0) } + [
                Self.fix(7, 70), Self.fix(8, 70), Self.fix(9, 90), Self.fix(10, 90),
            ]
        // dwell after 5 s; 70 m (20 m out) is within the fence's 30 m hysteresis; exit at 10 is
        // not notified (notify lists only enter and dwell).
        #expect(try Self.run(fences, fixes) == ["enter@0", "dwell@5"])
    }

    @Test func losingTheFixNeverExits() throws {
        let fixes = [Self.fix(0, 0), Self.fix(1, 0), Self.fix(30, 0)]
        let events = try Self.run(Self.circle(radius: 50), fixes, ticks: Array(stride(from: 2.0, through: 29, by: 1)))
        #expect(events == ["enter@0", "fix_lost@11", "fix_acquired@30"])
    }

    @Test func crossOnlyWhenNeitherFixIsInside() throws {
        let fences = Self.circle(radius: 5)
        #expect(try Self.run(fences, [Self.fix(0, -12), Self.fix(1, 18)]) == ["cross@1"])
        #expect(try Self.run(fences, [Self.fix(0, -12), Self.fix(1, 18, north: 20)]) == [])
        #expect(try Self.run(fences, [Self.fix(0, -12), Self.fix(1, 0)]) == ["enter@1"])
    }

    @Test func approachOncePerApproachWithDistanceAndEta() throws {
        let fences = Self.circle(radius: 10, properties: #""approach":500"#)
        let engine = EventEngine(fences: try FenceSet.parse(fences))
        var approaches: [GeofenceEvent.Approach] = []
        for (second, offset) in [(0.0, -800.0), (1, -600), (2, -505), (3, -400)] {
            engine.process(Self.fix(second, offset, speed: 20)) {
                if case .approach(let approach) = $0.payload { approaches.append(approach) }
            }
        }
        #expect(approaches.count == 1)
        #expect(approaches.first.map { abs($0.distance - 495) < 0.5 } == true)
        #expect(approaches.first.map { abs($0.eta - 495.0 / 20) < 0.05 } == true)
        // Turning away re-arms it; heading back raises it again.
        var later: [String] = []
        for (second, track) in [(4.0, 270.0), (5, 90)] {
            engine.process(Self.fix(second, -400, speed: 20, track: track)) { later.append($0.kind.rawValue) }
        }
        #expect(later == ["approach"])
    }

    @Test func noApproachWhenStandingStill() throws {
        let fences = Self.circle(radius: 10, properties: #""approach":500"#)
        #expect(try Self.run(fences, [Self.fix(0, -300, speed: 0.3)]) == [])
    }

    @Test func eventsOfOneFixComeInSpecOrder() throws {
        // Fence a (r 50) is left at second 2 while fence b (r 5, 100 m east) is entered by the
        // same fix: exit before enter, whatever the file order.
        let fences = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[\(Geodesy.destination(lat: Self.centre.lat, lon: Self.centre.lon, bearing: 90, distance: 100).lon),\(Self.centre.lat)]},"properties":{"radius":5}},
             {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[\(Self.centre.lon),\(Self.centre.lat)]},"properties":{"radius":50}}]}
            """
        let events = try Self.run(
            fences, [Self.fix(0, 0), Self.fix(1, 90), Self.fix(2, 100)],
            settings: {
                var s = EventSettings()
                s.exitConfirm = 2
                return s
            }())
        #expect(events == ["enter@0", "exit@2", "enter@2"])
    }

    @Test func heartbeatCarriesTheFencesInside() throws {
        var settings = EventSettings()
        settings.heartbeat = 2
        let engine = EventEngine(fences: try FenceSet.parse(Self.circle(radius: 50)), settings: settings)
        var beats: [[Int]] = []
        for second in 0...4 {
            engine.process(Self.fix(Double(second), 0)) {
                if case .heartbeat(let inside) = $0.payload { beats.append(inside) }
            }
        }
        #expect(beats == [[0], [0], [0]])
    }

    @Test func idsAreStableAndDistinct() throws {
        let set = try FenceSet.parse(Self.circle(radius: 50))
        let enter = GeofenceEvent(.enter(GeofenceEvent.Enter(fence: 0, initial: false)), time: Self.start)
        let exit = GeofenceEvent(.exit(GeofenceEvent.Exit(fence: 0)), time: Self.start)
        #expect(
            enter.id(fences: set)
                == GeofenceEvent(.enter(GeofenceEvent.Enter(fence: 0, initial: false)), time: Self.start).id(
                    fences: set))
        #expect(enter.id(fences: set) != exit.id(fences: set))
        #expect(enter.id(fences: set).count == 16)
    }

    @Test func propertiesStayOnOneLine() throws {
        let set = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"f","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties": {
                "radius": 50,
                "note": "two  spaces\\nand an escaped newline"
             }}]}
            """)
        let json = GeofenceEvent(.enter(GeofenceEvent.Enter(fence: 0, initial: false)), time: Self.start).json(
            fences: set)
        #expect(!json.contains("\n"))
        #expect(json.contains(#""note":"two  spaces\nand an escaped newline""#))
    }
}

@Suite struct EngineStateTests {
    @Test func restoredInsideStateGivesNoSecondEnter() throws {
        let fences = try FenceSet.parse(EventEngineTests.circle(radius: 50))
        let first = EventEngine(fences: fences)
        first.process(EventEngineTests.fix(0, 0)) { _ in }
        let saved = first.snapshot()
        #expect(saved.count == 1 && saved.first?.inside == true)

        let second = EventEngine(fences: fences)
        second.restore(saved)
        var kinds: [String] = []
        for (second_, offset) in [(100.0, 0.0), (101, 80), (102, 80)] {
            second.process(EventEngineTests.fix(second_, offset)) { kinds.append($0.kind.rawValue) }
        }
        // No enter: it was inside and still is. The stay began at second 0, so the dwell fires,
        // and the visit at the exit counts from the saved enter time.
        #expect(kinds == ["registered", "dwell", "exit", "visit"])
    }

    @Test func aChangedFenceStartsFresh() throws {
        let before = try FenceSet.parse(EventEngineTests.circle(radius: 50))
        let after = try FenceSet.parse(EventEngineTests.circle(radius: 60))
        #expect(before.geometryHash(0) != after.geometryHash(0))
        let engine = EventEngine(fences: before)
        engine.process(EventEngineTests.fix(0, 0)) { _ in }
        let resumed = EventEngine(fences: after)
        resumed.restore(engine.snapshot())
        var kinds: [String] = []
        resumed.process(EventEngineTests.fix(1, 0)) { kinds.append($0.kind.rawValue) }
        #expect(kinds == ["registered", "enter"])
    }
}

@Suite struct SilenceTests {
    /// A receiver whose clock is far from the system's: silence measured by the caller raises
    /// fix_lost once, on the wall clock, and the next fix acquires it again.
    @Test func silenceRaisesFixLostOnceWhateverTheReceiverClock() throws {
        let engine = EventEngine(fences: try FenceSet.parse(EventEngineTests.circle(radius: 50)))
        var kinds: [String] = []
        engine.silence(at: UTCTime(millisecondsSinceEpoch: 1_800_000_000_000)) { kinds.append($0.kind.rawValue) }
        #expect(kinds.isEmpty, "no fix yet: nothing to lose")
        engine.process(EventEngineTests.fix(0, 0)) { kinds.append($0.kind.rawValue) }
        let wall = UTCTime(millisecondsSinceEpoch: 1_800_000_000_000)
        engine.silence(at: wall) { kinds.append($0.kind.rawValue) }
        engine.silence(at: wall) { kinds.append($0.kind.rawValue) }
        engine.process(EventEngineTests.fix(1, 0)) { kinds.append($0.kind.rawValue) }
        #expect(kinds == ["registered", "enter", "fix_lost", "fix_acquired"])
    }
}

/// What sinks read from the engine instead of rebuilding it from events (MQTT's retained states).
@Suite struct FenceStateReadingTests {
    typealias T = EventEngineTests

    @Test func insideAndOutsideSinceTheLastChange() throws {
        let engine = EventEngine(fences: try FenceSet.parse(T.circle(radius: 50)))
        engine.process(T.fix(0, 200)) { _ in }
        #expect(engine.fenceState(0).inside == false && engine.fenceState(0).since == nil, "never changed")
        engine.process(T.fix(1, 0)) { _ in }
        #expect(engine.fenceState(0).inside && engine.fenceState(0).since == T.fix(1, 0).time)
        for second in 2...4 { engine.process(T.fix(Double(second), 300)) { _ in } }
        let state = engine.fenceState(0)
        #expect(!state.inside && state.since == T.fix(3, 0).time, "left at the confirming fix")
    }

    @Test func aReloadKeepsExitTimesOfUnchangedFencesOnly() throws {
        let engine = EventEngine(fences: try FenceSet.parse(T.circle(radius: 50)))
        engine.process(T.fix(0, 0)) { _ in }
        for second in 1...3 { engine.process(T.fix(Double(second), 300)) { _ in } }
        let left = try #require(engine.fenceState(0).since)
        let same = EventEngine(fences: try FenceSet.parse(T.circle(radius: 50)))
        same.keepExitTimes(of: engine)
        #expect(same.fenceState(0).since == left && !same.fenceState(0).inside)
        let moved = EventEngine(fences: try FenceSet.parse(T.circle(radius: 60)))
        moved.keepExitTimes(of: engine)
        #expect(moved.fenceState(0).since == nil, "a changed fence starts fresh")
    }

    /// OwnTracks' `wtst` is the fence's registration: set by the first `registered`, kept over a
    /// reload for an id that stays, even when its geometry changed (it is the same region).
    @Test func registrationTimeIsTheFirstRegisteredAndSurvivesAReload() throws {
        let engine = EventEngine(fences: try FenceSet.parse(T.circle(radius: 50)))
        #expect(engine.registrationTime(0) == nil, "nothing announced yet")
        engine.process(T.fix(5, 200)) { _ in }
        #expect(engine.registrationTime(0) == T.fix(5, 200).time)
        engine.process(T.fix(6, 200)) { _ in }
        #expect(engine.registrationTime(0) == T.fix(5, 200).time, "announced once")
        let reloaded = EventEngine(fences: try FenceSet.parse(T.circle(radius: 60)))
        reloaded.keepExitTimes(of: engine)
        reloaded.start(at: try #require(T.fix(9, 0).time)) { _ in }
        #expect(reloaded.registrationTime(0) == T.fix(5, 200).time)
    }
}
