/// Whole numbers for what people read: `Int(_:)` traps on NaN and beyond Int's range, and a
/// value computed from outside data (1e300 or `inf` in a fence file) must never crash the line
/// that shows it.
public enum WholeNumber {
    /// A Double as an Int, clamped to ±2^53 (NaN as 0), for display and counting code that must
    /// not trap whatever arithmetic produced the value.
    public static func clamped(_ value: Double) -> Int {
        guard value == value else { return 0 }
        let bound = 9_007_199_254_740_992.0
        return Int(Swift.min(Swift.max(value, -bound), bound))
    }
}
