/// The FAA mode indicator that NMEA 2.3 added to RMC, GLL and VTG.
///
/// `A` autonomous, `D` differential, `E` estimated (dead reckoning), `F` float RTK, `P` precise,
/// `R` RTK, `N` not valid, `S` simulator, `M` manual input. Absent on receivers older than 2.3.
enum FAAMode {
    /// A receiver in simulator or demo mode, or replaying a typed-in position, is not where it says
    /// it is: a geofence alarm must not act on it.
    static func isRealFix(_ mode: UInt8?) -> Bool {
        switch mode {
        case 0x4E, 0x53, 0x4D: false
        default: true
        }
    }
}
