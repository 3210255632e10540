import Glibc

/// The terminal a process's session belongs to, if any: the one whose closing sends it SIGHUP.
public enum ControllingTerminal {
    /// Whether this process has a controlling terminal. A process started from a shell on a
    /// terminal or over SSH has one; a systemd service, or anything started by `setsid`, has none.
    /// The corresponding C call is `open("/dev/tty", O_RDONLY | O_NOCTTY)`, which fails with ENXIO
    /// without one.
    public static var isPresent: Bool {
        let descriptor = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}
