import Foundation
import Platform
import Receivers

/// The folders whose inotify watches say that the fence file may have changed: the file's own
/// folder, and, when the file is a symlink (or its folder is reached through one), the folder of
/// the file it resolves to, where a save of the target happens (docs/running.md "Changing the
/// fences while it runs"). The target is resolved again after each change seen, so a link pointed
/// elsewhere moves the second watch with it.
///
/// `complete` is false while a watch cannot be set up (no inotify, a missing folder): the watcher
/// then looks at the file once a second instead, and this tries again at each wait.
struct FenceFileFolders {
    let path: String
    /// Each watched folder (resolved) and the names in it that are the fence file.
    private var watches: [String: (watch: DirectoryWatch, names: Set<String>)] = [:]
    private(set) var complete = false

    init(path: String) {
        self.path = path
        refresh()
    }

    /// Waits until a change to the fence file, a wake-up, or `timeout` seconds (nil: no limit);
    /// true when the file may have changed (its name in a watched folder, or a folder gone).
    mutating func wait(wakingOn wake: WakeSignal?, timeout: Double?) -> Bool {
        if !complete { refresh() }
        let folders = Array(watches.keys)
        let list = folders.compactMap { watches[$0]?.watch }
        if list.isEmpty, wake == nil {
            sleepSeconds(timeout ?? 1)
            return false
        }
        let result: DirectoryWatch.Wait
        do {
            result = try DirectoryWatch.wait(list, wakingOn: wake, timeout: timeout)
        } catch {
            // poll itself failed (no memory): the watches are set up again after a pause, never in
            // a spin.
            watches = [:]
            complete = false
            sleepSeconds(timeout ?? 1)
            return false
        }
        var changed = false
        for (folder, changes) in zip(folders, result.changes) {
            let names = watches[folder]?.names ?? []
            if changes.contains(where: { names.contains($0.name) }) { changed = true }
            if changes.contains(where: \.folderGone) {
                changed = true
                watches[folder] = nil
                complete = false
            }
        }
        if changed { refresh() }
        return changed
    }

    /// Resolves the file again and watches the folders it needs now: watches still needed are
    /// kept, the others closed.
    mutating func refresh() {
        let wanted = Self.folders(of: path)
        var next: [String: (watch: DirectoryWatch, names: Set<String>)] = [:]
        var allSet = true
        for (folder, names) in wanted {
            if let kept = watches[folder] {
                next[folder] = (kept.watch, names)
            } else if let watch = try? DirectoryWatch(folder: folder) {
                next[folder] = (watch, names)
            } else {
                allSet = false
            }
        }
        watches = next
        complete = allSet
    }

    /// The folders to watch for `path`, each with the names in it that matter: the path's own
    /// folder with its name, and the folder and name of the file it resolves to.
    static func folders(of path: String) -> [String: Set<String>] {
        var wanted: [String: Set<String>] = [:]
        let (folder, name) = split(path)
        wanted[resolved(folder) ?? folder, default: []].insert(name)
        if let target = target(of: path) {
            let (targetFolder, targetName) = split(target)
            wanted[targetFolder, default: []].insert(targetName)
        }
        return wanted
    }

    /// The file `path` names once every symlink is followed; for a link whose target is gone
    /// (deleted, to be written again), where the link points, its folder resolved.
    private static func target(of path: String) -> String? {
        if let real = resolved(path) { return real }
        guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        let absolute = destination.hasPrefix("/") ? destination : split(path).folder + "/" + destination
        let (folder, name) = split(absolute)
        return resolved(folder).map { $0 + ($0.hasSuffix("/") ? "" : "/") + name }
    }

    /// `realpath`: the path with every symlink followed, nil when something on it is missing.
    private static func resolved(_ path: String) -> String? {
        try? resolvedPath(path)
    }

    private static func split(_ path: String) -> (folder: String, name: String) {
        let parent = (path as NSString).deletingLastPathComponent
        return (parent.isEmpty ? "." : parent, (path as NSString).lastPathComponent)
    }
}
