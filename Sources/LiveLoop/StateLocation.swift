import Platform
import Receivers

/// Where gpsfence keeps what it learns between runs, decided here once and passed down (docs/running.md):
/// `$XDG_STATE_HOME/gpsfence`, else `~/.local/state/gpsfence`. The state file of `run` and
/// `visits` and the remembered baud rates live there.
public enum StateLocation {
    /// The folder, or nil when neither XDG_STATE_HOME nor HOME is set.
    public static var directory: String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/gpsfence" }
        if let home = environment("HOME") { return home + "/.local/state/gpsfence" }
        return nil
    }

    /// The state file when `--state` is not given.
    public static var defaultPath: String { (directory ?? ".") + "/state.sqlite" }

    /// The remembered baud rates, in the same folder.
    public static var baudMemory: BaudMemory? { directory.map(BaudMemory.init(directory:)) }

    static func environment(_ name: String) -> String? {
        environmentValue(name)
    }
}
