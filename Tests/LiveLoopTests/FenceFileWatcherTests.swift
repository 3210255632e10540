import Foundation
import Platform
import Testing
import Waiting

@testable import Fences
@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// `FenceFileWatcher` on real files, real inotify and its real thread: an idle watcher sleeps until
/// something happens to its file (the kernel's count of the thread's sleeps says so), a SIGHUP and
/// a stop wake it at once, and a fence file that is a symlink into another folder is followed
/// without looking at it on a timer.
@Suite struct FenceFileWatcherTests {
    /// What the watcher handed over, when, and the id of its thread (`ready` runs on it).
    final class Seen: Sendable {
        let loads = Locked<[(at: Date, ids: [FenceID])]>([])
        let thread = Locked<String?>(nil)
        let refusals = Locked<[String]>([])

        func ready(_ watcher: FenceFileWatcher) {
            let id = currentThreadID()
            thread.withLock { $0 = $0 ?? id }
            for outcome in watcher.take() {
                switch outcome {
                case .loaded(let match, _): loads.withLock { $0.append((Date(), Array(match.new.ids))) }
                case .refused(let problem): refusals.withLock { $0.append(problem.text) }
                }
            }
        }

        var count: Int { loads.withLock { $0.count } }

        /// Waits up to `seconds` (scaled for a slow machine) for the `number`th load; when it came,
        /// or nil.
        func load(_ number: Int, within seconds: Double) -> (at: Date, ids: [FenceID])? {
            var load: (at: Date, ids: [FenceID])?
            waitUntil(timeout: seconds, every: 0.005) {
                load = loads.withLock { $0.count >= number ? $0[number - 1] : nil }
                return load != nil
            }
            return load
        }
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Replaces `url` the way an editor saves: a new file beside it, renamed over it.
    func save(_ ids: [String], to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        try EngineLoopTests.circles(ids).write(to: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary.path, url.path) == 0)
    }

    /// A started watcher of `path`, after one SIGHUP-load that tells its thread's id; then idle.
    func started(_ path: String, _ seen: Seen) throws -> (FenceFileWatcher, thread: String) {
        let box = Locked<FenceFileWatcher?>(nil)
        let watcher = FenceFileWatcher(path: path, current: try FenceFile.load(path), settle: 0.1) {
            if let watcher = box.withLock({ $0 }) { seen.ready(watcher) }
        }
        box.withLock { $0 = watcher }
        watcher.start()
        watcher.requestReload()
        #expect(seen.load(1, within: 5) != nil, "the watcher loads at a SIGHUP")
        let thread = try #require(seen.thread.withLock { $0 })
        return (watcher, thread)
    }

    /// How many times the thread has gone to sleep so far (the kernel's count for it), nil once
    /// it has ended.
    func sleeps(_ thread: String) -> Int? { threadSleeps(thread) }

    func sleepsDuring(_ thread: String, _ body: () throws -> Void) throws -> Int {
        let before = try #require(sleeps(thread))
        try body()
        return try #require(sleeps(thread)) - before
    }

    @Test func anIdleWatcherSleepsThroughWritesToOtherFilesOfItsFolder() throws {
        let url = try folder()
        let fences = url.appendingPathComponent("fences.geojson")
        try EngineLoopTests.circles(["a"]).write(to: fences, atomically: false, encoding: .utf8)
        let seen = Seen()
        let (watcher, thread) = try started(fences.path, seen)
        defer { watcher.stop() }
        #expect(waitUntilIdle(thread), "the watcher never settled")

        // A window of 2.5 s in which the idle watcher must not wake: not a wait for a state.
        let idle = try sleepsDuring(thread) { Thread.sleep(forTimeInterval: 2.5) }
        #expect(idle <= 1, "no timer wakes an idle watcher")

        // A program that keeps its file open beside the fences and writes to it all the time: the
        // state file's write-ahead log, a log file.
        let log = url.appendingPathComponent("state.sqlite-wal")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let handle = try FileHandle(forWritingTo: log)
        let busy = try sleepsDuring(thread) {
            for _ in 0..<50 {
                try handle.write(contentsOf: Data(repeating: 7, count: 4096))
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        try handle.close()
        #expect(busy <= 2, "writes to another file of the folder wake the watcher \(busy) times")
        #expect(seen.count == 1, "nothing was loaded for them")

        try save(["b"], to: fences)
        #expect(seen.load(2, within: 5)?.ids == [.string("b")], "the watcher still sees its own file")
    }

    /// The engine says `registered` as soon as `start()` returns; an edit made right then must be
    /// seen, however late the watcher's thread gets going (twenty watchers, each edited at once).
    @Test func anEditRightAfterStartIsSeen() throws {
        var watchers: [(FenceFileWatcher, Seen)] = []
        defer { for (watcher, _) in watchers { watcher.stop() } }
        for _ in 0..<20 {
            let fences = try folder().appendingPathComponent("fences.geojson")
            try EngineLoopTests.circles(["a"]).write(to: fences, atomically: false, encoding: .utf8)
            let seen = Seen()
            let box = Locked<FenceFileWatcher?>(nil)
            let watcher = FenceFileWatcher(path: fences.path, current: try FenceFile.load(fences.path), settle: 0.1) {
                if let watcher = box.withLock({ $0 }) { seen.ready(watcher) }
            }
            box.withLock { $0 = watcher }
            watcher.start()
            try save(["b"], to: fences)
            watchers.append((watcher, seen))
        }
        let missed = watchers.filter { $0.1.load(1, within: 5)?.ids != [.string("b")] }.count
        #expect(missed == 0, "\(missed) of 20 edits made right after start() were not seen")
    }

    @Test func aSignalAndAStopWakeAnIdleWatcherAtOnce() throws {
        let url = try folder()
        let fences = url.appendingPathComponent("fences.geojson")
        try EngineLoopTests.circles(["a"]).write(to: fences, atomically: false, encoding: .utf8)
        let seen = Seen()
        let (watcher, thread) = try started(fences.path, seen)

        // Right after a load the thread goes back to its idle wait: a timer would run in full now.
        let asked = Date()
        watcher.requestReload()
        let second = try #require(seen.load(2, within: 5))
        #expect(second.at.timeIntervalSince(asked) < 0.5, "a SIGHUP is seen at once")

        let stopped = Date()
        watcher.stop()
        waitUntil(timeout: 5, every: 0.005) { sleeps(thread) == nil }
        #expect(sleeps(thread) == nil, "the thread ended")
        #expect(Date().timeIntervalSince(stopped) < 0.5, "a stop is seen at once")
        try save(["b"], to: fences)
        Thread.sleep(forTimeInterval: 0.5)  // nothing happens: no load in five settle times
        #expect(seen.count == 2, "nothing is handed over after the stop")
    }

    @Test func aFenceFileThatIsASymlinkIsFollowedIntoItsTargetsFolder() throws {
        let url = try folder()
        let targets = url.appendingPathComponent("targets")
        let others = url.appendingPathComponent("others")
        let links = url.appendingPathComponent("links")
        for folder in [targets, others, links] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let target = targets.appendingPathComponent("fences.geojson")
        try EngineLoopTests.circles(["a"]).write(to: target, atomically: false, encoding: .utf8)
        let fences = links.appendingPathComponent("fences.geojson")
        try FileManager.default.createSymbolicLink(
            atPath: fences.path, withDestinationPath: "../targets/fences.geojson")
        let seen = Seen()
        let (watcher, thread) = try started(fences.path, seen)
        defer { watcher.stop() }
        #expect(waitUntilIdle(thread), "the watcher never settled")

        // A window of 2.5 s in which the idle watcher must not wake: not a wait for a state.
        let idle = try sleepsDuring(thread) { Thread.sleep(forTimeInterval: 2.5) }
        #expect(idle <= 1, "the target is not looked at on a timer")

        var saved = Date()
        try save(["b"], to: target)
        let second = try #require(seen.load(2, within: 5))
        #expect(second.ids == [.string("b")])
        #expect(second.at.timeIntervalSince(saved) < 0.8, "the target's own folder saw the save")

        // The link pointed at a file in a third folder: that folder is watched from then on.
        let other = others.appendingPathComponent("mine.geojson")
        try EngineLoopTests.circles(["c"]).write(to: other, atomically: false, encoding: .utf8)
        let relink = links.appendingPathComponent(".fences.link")
        try FileManager.default.createSymbolicLink(atPath: relink.path, withDestinationPath: other.path)
        #expect(rename(relink.path, fences.path) == 0)
        #expect(seen.load(3, within: 5)?.ids == [.string("c")], "the link itself changed")
        saved = Date()
        try save(["d"], to: other)
        let fourth = try #require(seen.load(4, within: 5))
        #expect(fourth.ids == [.string("d")])
        #expect(fourth.at.timeIntervalSince(saved) < 0.8, "the new target's folder saw the save")
    }

    @Test func aFileWrittenSlowlyIsLoadedWhenItsWriterClosesIt() throws {
        let url = try folder()
        let fences = url.appendingPathComponent("fences.geojson")
        try EngineLoopTests.circles(["a"]).write(to: fences, atomically: false, encoding: .utf8)
        let seen = Seen()
        let (watcher, _) = try started(fences.path, seen)
        defer { watcher.stop() }

        // Half the file, then a pause far longer than the quiet spell, then the rest.
        let handle = try FileHandle(forWritingTo: fences)
        try handle.truncate(atOffset: 0)
        let whole = Data(EngineLoopTests.circles(["b"]).utf8)
        try handle.write(contentsOf: whole.prefix(whole.count / 2))
        Thread.sleep(forTimeInterval: 0.6)  // nothing happens: no load in six settle times
        #expect(seen.count == 1, "nothing loaded while the writer has the file open")
        try handle.write(contentsOf: whole.suffix(from: whole.count / 2))
        try handle.close()
        #expect(seen.load(2, within: 5)?.ids == [.string("b")], "loaded whole once closed")
        #expect(seen.refusals.withLock { $0 } == [], "never refused half")
    }

    @Test func aFileInAFolderNotThereYetOrDeletedAndWrittenAgainIsLoaded() throws {
        let url = try folder()
        let missing = url.appendingPathComponent("later")
        let fences = missing.appendingPathComponent("fences.geojson")
        let seen = Seen()
        let box = Locked<FenceFileWatcher?>(nil)
        let watcher = FenceFileWatcher(
            path: fences.path, current: try FenceSet.parse(EngineLoopTests.circles(["a"])), settle: 0.1
        ) {
            if let watcher = box.withLock({ $0 }) { seen.ready(watcher) }
        }
        box.withLock { $0 = watcher }
        watcher.start()
        defer { watcher.stop() }
        Thread.sleep(forTimeInterval: 0.3)  // the case: the watcher starts before the folder is made

        // No folder to watch: the file is looked at once a second until it is there.
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
        try EngineLoopTests.circles(["b"]).write(to: fences, atomically: false, encoding: .utf8)
        #expect(seen.load(1, within: 5)?.ids == [.string("b")])
        let thread = try #require(seen.thread.withLock { $0 })
        #expect(waitUntilIdle(thread), "the watcher never settled")
        // A window of 2.5 s in which the idle watcher must not wake: not a wait for a state.
        let idle = try sleepsDuring(thread) { Thread.sleep(forTimeInterval: 2.5) }
        #expect(idle <= 1, "the folder is watched now: no more looking on a timer")

        try FileManager.default.removeItem(at: fences)
        try EngineLoopTests.circles(["c"]).write(to: fences, atomically: false, encoding: .utf8)
        #expect(seen.load(2, within: 5)?.ids == [.string("c")], "deleted and written again")
        #expect(seen.refusals.withLock { $0 } == [])
    }
}
