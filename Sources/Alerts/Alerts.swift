/// Module `Alerts` (SPEC §2). Filled by a later issue; present now so that the folders and the
/// dependency direction of the package exist from the start.
import Geofence

public enum Alerts {}
