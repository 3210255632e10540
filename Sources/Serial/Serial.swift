import CUdev
import NMEA
import SystemPackage

/// Namespace of the serial layer. The port, autobaud and udev discovery arrive with the serial
/// issue; until then this module only fixes its place in the dependency graph (SPEC §2).
public enum Serial {
    /// The udev library this build links against answers; proves the system library target works.
    public static var udevAvailable: Bool {
        guard let udev = udev_new() else { return false }
        udev_unref(udev)
        return true
    }
}
