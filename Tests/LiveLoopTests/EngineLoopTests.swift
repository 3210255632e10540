import Delivery
import Foundation
import NMEA
import Platform
import Receivers
import Synchronization
import SystemPackage
import Testing

@testable import Events
@testable import Fences
@testable import Jobs
@testable import LiveLoop
@testable import Store
@testable import Tools

/// `EngineLoop` in process, without the binary: a real ring, reader thread, state file and fence
/// file, fed by a source that plays a script of inputs (the receiver's side is tested elsewhere;
/// here the inputs themselves are the subject).
@Suite struct EngineLoopTests {
    static let start: Int64 = 1_770_113_700_000
    static let centre = (lat: 47.3769, lon: 8.5417)

    /// One step of a script: an input for the ring, or a pause (the reader thread sleeps), or an
    /// action run on the reader thread at that point.
    enum Step {
        case input(EngineInput)
        case pause(Double)
        case action(@Sendable () -> Void)
        /// Inputs `make(0)`, `make(1)`, ... 20 ms apart, until `until` holds or `atMost` were given.
        case inputsUntil(@Sendable (Int) -> EngineInput, until: @Sendable () -> Bool, atMost: Int)
        /// Until `until` holds, or `timeout` seconds.
        case waitFor(@Sendable () -> Bool, timeout: Double)
    }

    final class ScriptedSource: FixSource, @unchecked Sendable {
        let steps: [Step]
        let isLive: Bool
        let readCues: ReadSchedule.Cues?
        /// `live`: as a receiver is, never waiting for room in the ring; its reader takes turns at
        /// the engine (`EngineTurn`) and is told which cycles are quiet.
        init(_ steps: [Step], live: Bool = false, foresight: ReadSchedule.Cues? = nil) {
            self.steps = steps
            isLive = live
            readCues = live ? (foresight ?? ReadSchedule.Cues()) : nil
        }
        var waitsForRoom: Bool { !isLive }
        func run(_ emit: (EngineInput) -> Void) {
            for step in steps {
                switch step {
                case .input(let input): emit(input)
                case .pause(let seconds): Thread.sleep(forTimeInterval: seconds)
                case .action(let action): action()
                case .inputsUntil(let make, let until, let atMost):
                    for count in 0..<atMost where !until() {
                        emit(make(count))
                        Thread.sleep(forTimeInterval: 0.02)
                    }
                case .waitFor(let until, let timeout):
                    let deadline = Date().addingTimeInterval(timeout)
                    while !until(), Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
                }
            }
        }
        func stop() {}
    }

    /// A usable fix `east` metres east of the centre, `second` seconds after the start.
    static func fix(_ second: Int64, east: Double) -> EngineInput {
        let point = Geodesy.destination(
            lat: centre.lat, lon: centre.lon, bearing: east < 0 ? 270 : 90, distance: abs(east))
        return .fix(
            Fix(
                time: UTCTime(millisecondsSinceEpoch: start + second * 1000), timeOfDay: TimeOfDay(milliseconds: 0),
                latitude: point.lat, longitude: point.lon, speed: 10, track: 90, mode: .threeD, accuracy: 3))
    }

    static func circles(_ ids: [String], radius: Double = 50) -> String {
        let features = ids.map { id in
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(centre.lon),\#(centre.lat)]},"properties":{"radius":\#(radius)}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    struct Run {
        let folder: URL
        var fencesPath: String { folder.appendingPathComponent("fences.geojson").path }
        var statePath: String { folder.appendingPathComponent("state.sqlite").path }

        init(fences: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-loop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try fences.write(toFile: fencesPath, atomically: false, encoding: .utf8)
        }

        /// Runs the script through a loop over the fence file and a state file; returns what the
        /// sink saw and the store.
        func play(
            _ steps: [Step], reloads: Bool = false, live: Bool = false, also: [EventSink] = [],
            reports: ProblemReports = ProblemReports(), foresight: ReadSchedule.Cues? = nil,
            ringCapacity: Int? = nil
        ) throws -> ([EventRecord], StateStore) {
            let store = try StateStore(path: statePath)
            let sink = CollectingSink(maxAccuracy: 100)
            var configuration = EngineLoop.Configuration()
            if let ringCapacity { configuration.ringCapacity = ringCapacity }
            // The scripts step 200 m a second: tests of the loop, not of the glitch filter.
            configuration.settings.maxSpeed = Limits.maxSpeed
            if reloads { configuration.reloadPath = fencesPath }
            let loop = try EngineLoop(
                configuration: configuration, fences: try FenceFile.load(fencesPath), store: store,
                sinks: [sink] + also, reports: reports)
            _ = try loop.run(ScriptedSource(steps, live: live, foresight: foresight))
            return (sink.records, store)
        }
    }

    @Test func eventsComeInOrderAndAreLoggedBeforeTheSinkSeesThem() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let (seen, store) = try run.play([
            .input(.connected(device: "/dev/ttyTEST", detail: "at 9600 baud")),
            .input(Self.fix(0, east: -200)),
            .input(Self.fix(1, east: 0)),
            .input(Self.fix(2, east: 200)),
            .input(Self.fix(3, east: 220)),
        ])
        #expect(seen.map(\.kind) == [.deviceConnected, .registered, .enter, .exit])
        #expect(seen[0].event.message == "/dev/ttyTEST at 9600 baud")
        #expect(seen[2].fence?.id == .string("a") && seen[2].time.millisecondsSinceEpoch == Self.start + 1000)
        #expect(try store.eventRecords(from: .min) == seen, "the log holds exactly what the sink saw")
        #expect(try store.receiver().device == "/dev/ttyTEST")
    }

    /// The test device could not be opened, for `errno`.
    static func unavailable(_ errno: Errno) -> SerialError {
        SerialError(operation: "open", path: "/dev/ttyTEST", errno: errno)
    }

    @Test func deviceLossAndProblemsAreEventsAndEachProblemIsSaidOnce() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let absent = Self.unavailable(.noSuchFileOrDirectory)
        let denied = Self.unavailable(.permissionDenied)
        let (seen, _) = try run.play([
            .input(.connected(device: "/dev/ttyTEST", detail: nil)),
            .input(.lost(device: "/dev/ttyTEST", reason: "unplugged")),
            .input(.problem(.unavailable(absent))),
            .input(.problem(.unavailable(absent))),
            .input(.problem(.unavailable(denied))),
            // An event's id is its kind, millisecond, fence and message, and its time is when the
            // engine handles it: the same event twice within one millisecond is one event (the log
            // keeps ids unique). A device does not come back that fast; a script would, and on a
            // loaded machine the engine drains it in one go. So the script waits as a device would,
            // long enough for the engine to have handled what came before.
            .pause(0.2),
            .input(.connected(device: "/dev/ttyTEST", detail: nil)),
            .pause(0.2),
            .input(.problem(.unavailable(denied))),
        ])
        #expect(seen.map(\.kind) == [.deviceConnected, .deviceLost, .error, .error, .deviceConnected, .error])
        #expect(seen[1].event.message == "/dev/ttyTEST: unplugged")
        let messages = seen.filter { $0.kind == .error }.map { $0.event.message ?? "" }
        #expect(
            messages.count == 3 && messages.allSatisfy { $0.hasPrefix("open '/dev/ttyTEST' failed: ") }, "\(messages)")
        #expect(
            messages == [absent.description, denied.description, denied.description],
            "a problem repeats only after the device came back in between")
    }

    /// A replay reads as the drive's timeline: a problem takes the time of the latest fix (one met
    /// before any, the first fix's, ahead of its events; one in a state file's continuation, the
    /// file's last fix), keeping the wall clock as `wallTime`. Live, it is the wall clock.
    @Test func aReplaysProblemsAreOnItsClockAndLiveOnesOnTheWallClock() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let before = currentUTCTime().millisecondsSinceEpoch
        let (seen, _) = try run.play([
            .input(.problem(.unavailable(Self.unavailable(.noSuchFileOrDirectory)))),
            .input(Self.fix(0, east: -200)),
            .input(Self.fix(1, east: 0)),
            .input(.problem(.unavailable(Self.unavailable(.permissionDenied)))),
            .input(Self.fix(2, east: 5)),
        ])
        let after = currentUTCTime().millisecondsSinceEpoch
        #expect(seen.map(\.kind) == [.error, .registered, .enter, .error])
        let times = seen.map { $0.time.millisecondsSinceEpoch - Self.start }
        #expect(times == [0, 0, 1000, 1000], "\(times)")
        let walls = seen.filter { $0.kind == .error }.compactMap { $0.event.wallTime?.millisecondsSinceEpoch }
        #expect(walls.count == 2 && walls.allSatisfy { (before...after).contains($0) }, "\(walls)")
        #expect(seen.filter { $0.kind != .error }.allSatisfy { $0.event.wallTime == nil })

        // The same state file again, all its fixes held already: the clock starts at its last fix.
        let (again, _) = try run.play([.input(.problem(.unavailable(Self.unavailable(.noSuchFileOrDirectory))))])
        #expect(again.first?.kind == .error && again.first?.time.millisecondsSinceEpoch == Self.start + 2000)

        let live = try Run(fences: Self.circles(["a"]))
        let (said, _) = try live.play(
            [.input(.problem(.unavailable(Self.unavailable(.noSuchFileOrDirectory))))], live: true)
        let error = try #require(said.first { $0.kind == .error })
        #expect(error.event.wallTime == nil)
        #expect(abs(error.time.millisecondsSinceEpoch - currentUTCTime().millisecondsSinceEpoch) < 60_000)
    }

    @Test func aChangedFenceFileUnregistersTheGoneAndKeepsTheUnchanged() throws {
        let run = try Run(fences: Self.circles(["a", "b"]))
        let path = run.fencesPath
        let (seen, store) = try run.play(
            [
                .input(Self.fix(0, east: 0)),
                .pause(0.5),
                .action { try? Self.circles(["b", "c"]).write(toFile: path, atomically: false, encoding: .utf8) },
                .pause(2.5),
                .input(Self.fix(2, east: 0)),
            ], reloads: true)
        #expect(seen.map(\.kind) == [.registered, .enter, .enter, .exit, .unregistered, .registered, .enter])
        #expect(seen[3].fence?.id == .string("a") && seen[3].event.reason == .removed, "a left as it went")
        #expect(seen[4].fences == [.string("a")], "only the fence that is gone")
        #expect(seen[5].fences == [.string("c")], "only the fence that arrived")
        #expect(seen[6].fence?.id == .string("c"), "b kept its state: no second enter")
        // Entered at the next fix instead, it would not be `initial`: the new engine goes on from the last fix.
        #expect(seen[6].event.initial == true, "c is entered at once, on the last fix, not at the next one")
        #expect(Set(try store.fenceStates().map(\.fenceID)) == [.string("b"), .string("c")])
        // Only the run's first fix is "at start"; a fence the reload brought says so.
        #expect(seen[6].event.reason == .added && seen[1].event.reason == nil)
        let first = ConsoleSink.humanLine(
            seen[1].event, fences: try FenceSet.parse(Self.circles(["a", "b"])), color: false)
        let reloaded = ConsoleSink.humanLine(
            seen[6].event, fences: try FenceSet.parse(Self.circles(["b", "c"])), color: false)
        #expect(first.contains("already inside at start"), "\(first)")
        #expect(reloaded.contains("already inside when the fence was added"), "\(reloaded)")
        #expect(!reloaded.contains("at start"), "\(reloaded)")
    }

    /// Edits the fence file the moment the first `registered` reaches it: what a person does who
    /// starts `run` and saves the file as soon as the fences are said.
    final class EditOnRegisteredSink: EventSink, @unchecked Sendable {
        let path: String
        private let edited = Locked(false)
        init(path: String) { self.path = path }
        var waitsForStorage: Bool { false }
        func deliver(_ event: OutgoingEvent, fences: FenceSet) {
            guard event.event.kind == .registered, !edited.withLock({ $0 }) else { return }
            edited.withLock { $0 = true }
            try? EngineLoopTests.circles(["b", "c"]).write(toFile: path, atomically: true, encoding: .utf8)
        }
        func finish() {}
    }

    /// An edit saved as soon as `registered` is said is reloaded: the fence file is watched before
    /// the fences are registered, not after.
    @Test func anEditSavedAsSoonAsTheFencesAreRegisteredIsReloaded() throws {
        let run = try Run(fences: Self.circles(["a", "b"]))
        let (seen, _) = try run.play(
            [.pause(2.5), .input(Self.fix(0, east: 0)), .pause(0.3)], reloads: true, live: true,
            also: [EditOnRegisteredSink(path: run.fencesPath)])
        #expect(seen.filter { $0.kind == .unregistered }.map(\.fences) == [[.string("a")]], "\(seen.map(\.kind))")
        #expect(seen.filter { $0.kind == .registered }.count == 2, "\(seen.map(\.kind))")
    }

    /// The name the calling thread gave itself (`gf-reader`, ...), as the kernel keeps it.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Notes the thread each fix and each event reached the sinks on, and can hold the thread that
    /// delivers an `error` event (the engine thread's upkeep does) for a while.
    final class ThreadNotingSink: EventSink, @unchecked Sendable {
        let holdOnError: Double
        /// Signalled when a hold begins.
        let holding = DispatchSemaphore(value: 0)
        private let noted = Locked<(fixes: [String], events: [String])>(([], []))
        init(holdOnError: Double = 0) { self.holdOnError = holdOnError }
        var fixThreads: [String] { noted.withLock { $0.fixes } }
        var waitsForStorage: Bool { false }
        var observesFixes: Bool { true }
        func observe(_ fix: Fix) {
            let name = EngineLoopTests.threadName()
            noted.withLock { $0.fixes.append(name) }
        }
        func deliver(_ event: OutgoingEvent, fences: FenceSet) {
            let name = EngineLoopTests.threadName()
            noted.withLock { $0.events.append(name) }
            if event.event.kind == .error, holdOnError > 0 {
                holding.signal()
                Thread.sleep(forTimeInterval: holdOnError)
            }
        }
        func finish() {}
    }

    /// A live source's fixes go through the engine on the reader thread's own wake-up, while the
    /// engine thread waits: one thread woken per receiver cycle instead of two.
    @Test func aLiveReceiversFixesGoThroughTheEngineOnTheReadersWakeUp() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let threads = ThreadNotingSink()
        var steps: [Step] = [.input(.connected(device: "/dev/ttyTEST", detail: nil)), .pause(0.2)]
        for second in 0..<20 {
            steps += [.input(Self.fix(Int64(second), east: second < 10 ? -200 : 0)), .pause(0.05)]
        }
        let (seen, store) = try run.play(steps, live: true, also: [threads])
        #expect(seen.map(\.kind) == [.registered, .deviceConnected, .enter])
        #expect(try store.eventRecords(from: .min) == seen, "committed before any sink saw it, as ever")
        let onReader = threads.fixThreads.filter { $0 == "gf-reader" }.count
        #expect(threads.fixThreads.count == 20)
        // The engine thread's half-second timer may hold the turn when a fix comes: that fix is
        // handled by the engine thread instead. Rarely; never most of them.
        #expect(onReader >= 16, "fixes handled on the reader thread: \(threads.fixThreads)")
    }

    /// While a receiver's fixes flow, the reader's turns ring for what the engine thread must do,
    /// and the engine thread sleeps through its half-second timer: it woke four or five times in
    /// these 2.5 s before, once at most now.
    @Test func theEngineThreadSleepsWhileTheReaderTakesTheFixes() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let engineThread = try #require(currentThreadID())
        let counted = Locked<[Int]>([])
        let count: Step = .action { counted.withLock { $0.append(threadSleeps(engineThread) ?? -1) } }
        var steps: [Step] = [.input(.connected(device: "/dev/ttyTEST", detail: nil))]
        for tenth in 0..<60 {
            if tenth == 10 { steps.append(count) }
            steps += [.input(Self.fix(Int64(tenth), east: -500)), .pause(0.05)]
        }
        steps.append(count)
        let (seen, _) = try run.play(steps, live: true)
        #expect(seen.map(\.kind) == [.registered, .deviceConnected])
        let wakeUps = counted.withLock { $0 }
        #expect(wakeUps.count == 2 && wakeUps[0] >= 0)
        #expect(wakeUps[1] - wakeUps[0] <= 1, "the engine thread woke \(wakeUps[1] - wakeUps[0]) times in 2.5 s")
    }

    /// The reader's turns tell it how many of the receiver's next cycles cannot raise an event
    /// (it sleeps through them): as many as it may be told far from the fence, none near its
    /// edge, and none after a round of the engine thread's, which may have changed the fences,
    /// until the reader's next turn. A fix that comes while the engine thread holds the turn is
    /// handled by that thread (a round of its own), so fixes come until one is the reader's.
    @Test func theReaderIsToldWhichCyclesAreQuiet() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let foresight = ReadSchedule.Cues()
        let told = Locked<[Int]>([])
        let note: Step = .action { told.withLock { $0.append(foresight.quietCyclesAhead) } }
        let mostQuiet: @Sendable () -> Bool = { foresight.quietCyclesAhead == ReadSchedule.Cues.mostQuietCycles }
        let reports = ProblemReports()
        let report = reports.reportProblem
        var steps: [Step] = [.input(.connected(device: "/dev/ttyTEST", detail: nil))]
        steps += [
            .inputsUntil({ Self.fix(Int64($0), east: -3000 + 10 * Double($0)) }, until: mostQuiet, atMost: 40), note,
        ]
        steps += [
            .action { report(.engine(.fellBehind(dropped: 1, ringCapacity: 8))) },
            .waitFor({ foresight.quietCyclesAhead == 0 }, timeout: 60), note,
        ]
        steps += [
            .inputsUntil({ Self.fix(Int64(50 + $0), east: -2500 + 10 * Double($0)) }, until: mostQuiet, atMost: 40),
            note,
        ]
        // 10 m/s: the next fix may be 23 m on; the edge of the 50 m circle is 10 m away.
        steps += [.input(Self.fix(100, east: -70)), .input(Self.fix(101, east: -60)), note]
        let (seen, _) = try run.play(steps, live: true, reports: reports, foresight: foresight)
        #expect(seen.map(\.kind) == [.registered, .deviceConnected, .error])
        #expect(told.withLock { $0 } == [ReadSchedule.Cues.mostQuietCycles, 0, ReadSchedule.Cues.mostQuietCycles, 0])
    }

    /// While the engine thread holds the turn (here a sink takes half a second over an `error`
    /// event in its upkeep), the reader does not wait for it: it pushes, rings, and goes on; the
    /// engine thread then handles what came, in order.
    @Test func aReaderFindingTheEngineThreadBusyGoesOnReading() throws {
        let run = try Run(fences: Self.circles(["a"]))
        let threads = ThreadNotingSink(holdOnError: 0.5)
        let reports = ProblemReports()
        let report = reports.reportProblem
        let pushing = Locked<(began: Double, ended: Double)>((0, 0))
        let holding = threads.holding
        var steps: [Step] = [
            .input(Self.fix(0, east: -200)), .pause(0.2),
            .action { report(.engine(.fellBehind(dropped: 1, ringCapacity: 8))) },
        ]
        // The report rings the engine thread, which takes it up and holds the turn for half a
        // second: these fixes come while it does.
        steps.append(
            .action {
                _ = holding.wait(timeout: .now() + 5)
                pushing.withLock { $0.began = monotonicSeconds() }
            })
        for second in 1...5 { steps.append(.input(Self.fix(Int64(second), east: second < 3 ? -200 : 0))) }
        steps += [.action { pushing.withLock { $0.ended = monotonicSeconds() } }, .pause(1.0)]
        let (seen, _) = try run.play(steps, live: true, also: [threads], reports: reports)
        let (began, ended) = pushing.withLock { $0 }
        #expect(ended - began < 0.1, "five pushes took \(ended - began) s: the reader waited for the engine thread")
        #expect(seen.map(\.kind) == [.registered, .error, .enter])
        #expect(seen[2].time.millisecondsSinceEpoch == Self.start + 3000)
        #expect(threads.fixThreads.count == 6)
    }
}

/// The fields the assertions above read, from the kinds that have them.
extension GeofenceEvent {
    fileprivate var message: String? {
        switch payload {
        case .deviceLost(let message, _), .deviceConnected(let message, _): message
        case .error(let problem, _): problem.text
        case .registered(_, let message): message
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .heartbeat,
            .unregistered, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared,
            .integrity:
            nil
        }
    }

    fileprivate var wallTime: UTCTime? {
        switch payload {
        case .deviceLost(_, let wallTime), .deviceConnected(_, let wallTime), .error(_, let wallTime): wallTime
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .heartbeat,
            .registered, .unregistered, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
            .alarmCleared, .integrity:
            nil
        }
    }

    fileprivate var initial: Bool? {
        if case .enter(let enter) = payload { enter.initial } else { nil }
    }

    fileprivate var reason: TransitionReason? {
        switch payload {
        case .enter(let enter): enter.reason
        case .exit(let exit): exit.reason
        case .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost, .deviceConnected,
            .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm,
            .alarmAcknowledged, .alarmCleared, .integrity:
            nil
        }
    }
}
