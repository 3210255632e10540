import Dispatch
import Foundation
import Geofence
import NMEA
import Serial
import Synchronization

/// The fence file of a run, watched and loaded again on a thread of its own (docs/running.md
/// "Changing the fences while it runs"), so that the engine thread only swaps sets.
///
/// The folder is watched (inotify), not the file: an editor's atomic save, `git pull`, `cp` over
/// the file and a truncate-and-write all show up there, and a rename-replace would leave a watch
/// on the file itself looking at the old inode. Bursts are debounced: a load starts once the file
/// has been quiet for `settle` seconds; a file that changes during its load is loaded again; and a
/// file that fails to parse right after a change is tried once more after another quiet spell
/// before it is refused (a writer may still be at it). A stat of the file once a second backs the
/// folder watch up (a fence file that is a symlink into another folder, a system without inotify).
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

    /// - Parameters:
    ///   - current: the set loaded now, which the first change is matched against.
    ///   - ready: called (on the watcher's thread) when an outcome waits in `take()`.
    init(path: String, current: FenceSet, settle: Double = 0.5, ready: @escaping @Sendable () -> Void) {
        self.path = path
        self.settle = settle
        self.ready = ready
        self.current = Locked(current)
    }

    func start() {
        let thread = Thread { [self] in
            nameThisThread("gf-fences")
            watch()
            done.signal()
        }
        thread.start()
    }

    /// Ends the thread: waits for a load in progress to end; an idle thread ends by itself within
    /// `idleWait` and hands nothing over after this.
    func stop() {
        // Sequentially consistent with the thread's two steps below: either it sees `stopped` before
        // it loads, or this sees `loading` and waits.
        stopped.store(true, ordering: .sequentiallyConsistent)
        if loading.load(ordering: .sequentiallyConsistent) { _ = done.wait(timeout: .now() + 10) }
    }

    /// SIGHUP: load the file now, changed or not.
    func requestReload() { reloadRequested.store(true, ordering: .relaxed) }

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

    private var folder: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private var name: String { (path as NSString).lastPathComponent }

    /// The thread's loop: wait for a change, let it settle, load.
    private func watch() {
        var loaded = FenceFileStamp.read(path)
        var directory = try? DirectoryWatch(folder: folder)
        var pending = Pending()
        var lastStat = DispatchTime.now()
        while !stopped.load(ordering: .relaxed) {
            let changes = wait(&directory, timeout: pending.active ? Self.busyWait : Self.idleWait)
            if changes.contains(where: { $0.name == name || $0.folderGone }) { pending.changed() }
            if changes.contains(where: \.folderGone) { directory = nil }
            if reloadRequested.exchange(false, ordering: .relaxed) { pending.forced() }
            if seconds(since: lastStat) >= 1 {
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
            hand(.refused("reload failed, keeping the \(current.withLock { $0.count }) fences loaded: \(error)"))
        }
        loaded = after
        pending = Pending()
    }

    private func hand(_ outcome: FenceFeedOutcome) {
        if stopped.load(ordering: .relaxed) { return }
        outcomes.withLock { $0.append(outcome) }
        ready()
    }

    /// How long the folder is waited on with no change pending: the once-a-second stat is due
    /// then, and SIGHUP is seen within it. The thread's only wake-up while nothing changes.
    static let idleWait = 1.0
    /// ... and with a change pending, so that the quiet spell is seen to end.
    static let busyWait = 0.1

    /// Up to `timeout` seconds for changes in the folder; a folder that is missing (or was
    /// replaced) is watched again as soon as it is there.
    private func wait(_ directory: inout DirectoryWatch?, timeout: Double) -> [DirectoryWatch.Change] {
        if directory == nil { directory = try? DirectoryWatch(folder: folder) }
        guard let watch = directory else {
            usleep(UInt32(timeout * 1_000_000))
            return []
        }
        do {
            return try watch.wait(timeout: timeout)
        } catch {
            directory = nil
            return []
        }
    }

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
