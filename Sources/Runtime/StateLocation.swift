#if canImport(Glibc)
import Glibc
#endif

/// Where `run` and `visits` keep their state when `--state` is not given (SPEC §8):
/// `$XDG_STATE_HOME/gpsfence/state.sqlite`, else `~/.local/state/gpsfence/state.sqlite`.
public enum StateLocation {
    public static var defaultPath: String {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/gpsfence/state.sqlite"
        }
        return (environment("HOME") ?? ".") + "/.local/state/gpsfence/state.sqlite"
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
