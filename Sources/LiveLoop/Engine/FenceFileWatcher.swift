import Dispatch
import Events
import Fences
import Foundation
import NMEA
import Platform
import Receivers
import Synchronization

/// The fence file of a run, watched and loaded again on a thread of its own (docs/running.md
/// "Changing the fences while it runs"), so that the engine thread only swaps sets.
///
/// The folder is watched (inotify), not the file: an editor's atomic save, `git pull`, `cp` over
/// the file and a truncate-and-write all show up there, and a rename-replace would leave a watch
/// on the file itself looking at the old inode. Bursts are debounced: a load starts once the file
/// has been quiet for `settle` seconds; a file that changes during its load is loaded again; and a
/// file that fails to parse right after a change is tried once more after another quiet spell
/// before it is refused (a writer may still be at it). A fence file that is a symlink has the
/// folder of its target watched as well (`FenceFileFolders`).
///
/// While nothing changes the thread sleeps without a timer: only a change to the file, a SIGHUP
/// (`requestReload()`) or `stop()` wakes it, the last two through a `WakeSignal`. Only where a
/// watch cannot be set up (no inotify, a missing folder) does it look at the file once a second.
final class FenceFileWatcher: FenceFeed, @unchecked Sendable {
    let path: String
    var origin: String { path }
    let settle: Double
    private let ready: @Sendable () -> Void
    private let outcomes = Locked<[FenceFeedOutcome]>([])
    private let current: Locked<FenceSet>
    private let reloadRequested = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let loading = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// What ends the idle wait at a SIGHUP or a stop; without it (no descriptor to spare), the idle
    /// wait is `statInterval` long and these are seen within it.
    private let wake = try? WakeSignal()

    /// - Parameters:
    ///   - current: the set loaded now, which the first change is matched against.
    ///   - ready: called (on the watcher's thread) when an outcome waits in `take()`.
    init(path: String, current: FenceSet, settle: Double = 0.5, ready: @escaping @Sendable () -> Void) {
        self.path = path
        self.settle = settle
        self.ready = ready
        self.current = Locked(current)
    }

    /// The file's stamp and the folders' watches, taken by `start()` on the caller's thread, so that
    /// an edit made as soon as the caller goes on is seen however late the thread starts.
    private var startingPoint: (loaded: FenceFileStamp?, folders: FenceFileFolders)?

    func start() {
        startingPoint = (FenceFileStamp.read(path), FenceFileFolders(path: path))
        let thread = Thread { [self] in
            runThread(named: "gf-fences") {
                watch()
                done.signal()
            }
        }
        thread.start()
    }

    /// Ends the thread: waits for a load in progress to end; an idle thread is woken and ends at
    /// once (closing its watches), and nothing is handed over after this.
    func stop() {
        // Sequentially consistent with the thread's two steps below: either it sees `stopped` before
        // it loads, or this sees `loading` and waits.
        stopped.store(true, ordering: .sequentiallyConsistent)
        wake?.signal()
        if loading.load(ordering: .sequentiallyConsistent) { _ = done.wait(timeout: .now() + 10) }
    }

    /// SIGHUP: load the file now, changed or not.
    func requestReload() {
        reloadRequested.store(true, ordering: .sequentiallyConsistent)
        wake?.signal()
    }

    /// The engine swapped sets (from this file or from another source): later loads are matched
    /// against `set`.
    func noteCurrent(_ set: FenceSet) { current.withLock { $0 = set } }

    /// The outcomes since the last call, oldest first.
    func take() -> [FenceFeedOutcome] {
        outcomes.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    /// The thread's loop: wait for a change, let it settle, load.
    private func watch() {
        guard let start = startingPoint else { return }
        startingPoint = nil
        var loaded = start.loaded
        var folders = start.folders
        var pending = Pending()
        var lastStat = DispatchTime.now()
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let sleepsUntilWoken = folders.complete && wake != nil
            let idle: Double? = sleepsUntilWoken ? nil : Self.statInterval
            if folders.wait(wakingOn: wake, timeout: pending.active ? Self.busyWait : idle) { pending.changed() }
            if reloadRequested.exchange(false, ordering: .sequentiallyConsistent) { pending.forced() }
            if !folders.complete, seconds(since: lastStat) >= Self.statInterval {
                lastStat = .now()
                if !pending.active, FenceFileStamp.read(path) != loaded { pending.changed() }
            }
            guard pending.active, seconds(since: pending.lastChange) >= settle else { continue }
            let before = FenceFileStamp.read(path)
            if !pending.force, before == loaded, before != nil {
                pending = Pending()
                continue
            }
            loading.store(true, ordering: .sequentiallyConsistent)
            if !stopped.load(ordering: .sequentiallyConsistent) {
                load(before: before, pending: &pending, loaded: &loaded)
            }
            loading.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// One attempt: a set that loads is handed over; a file that changed meanwhile waits for
    /// the next quiet spell; a failure right after a change is retried once.
    private func load(before: FenceFileStamp?, pending: inout Pending, loaded: inout FenceFileStamp?) {
        let result = Result { try FenceFile.load(path) }
        let after = FenceFileStamp.read(path)
        if after != before {
            pending.changed()
            return
        }
        switch result {
        case .success(let set):
            let match = FenceSetMatch(old: current.withLock { $0 }, new: set)
            hand(.loaded(match, keep: nil))
        case .failure(let error):
            if !pending.retried, !pending.force {
                pending.retried = true
                pending.changed()
                return
            }
            hand(.refused(.reloadFailed(loaded: current.withLock { $0.count }, CaughtError(error))))
        }
        loaded = after
        pending = Pending()
    }

    private func hand(_ outcome: FenceFeedOutcome) {
        if stopped.load(ordering: .relaxed) { return }
        outcomes.withLock { $0.append(outcome) }
        ready()
    }

    /// How often the file is looked at while its folders cannot be watched (and how long the
    /// idle wait is without a `WakeSignal`).
    static let statInterval = 1.0
    /// How long the folders are waited on with a change pending, so that the quiet spell is seen
    /// to end: the thread's one timer, and only while something happens.
    static let busyWait = 0.1

    private func seconds(since time: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - time.uptimeNanoseconds) / 1e9
    }

    /// A change seen and not yet loaded.
    private struct Pending {
        var active = false
        /// SIGHUP: load even an unchanged file, and refuse a bad one at once.
        var force = false
        var retried = false
        var lastChange = DispatchTime.now()

        mutating func changed() {
            active = true
            lastChange = .now()
        }

        mutating func forced() {
            active = true
            force = true
            // A signal needs no quiet spell.
            lastChange = DispatchTime(uptimeNanoseconds: 0)
        }
    }
}
