import GRDB

/// Reading numbers and text back from the state file without trusting them. The file is input
/// like any other (a damaged disk, a hand edit, another program): GRDB's `row["column"]` stops the
/// process with a fatal error when a value has the wrong type or is NULL, and a time of 2^63 would
/// overflow the arithmetic that follows. These return nil instead, and clamp to sane ranges.
extension Row {
    /// The column's value converted to `T`, or nil when it is NULL or of another type.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        let value: DatabaseValue = self[column] ?? .null
        return T.fromDatabaseValue(value)
    }

    /// A time in ms since 1970 within ±2^48 (year ±10889), else nil.
    func storedTime(_ column: String) -> Int64? {
        // Not `abs(time)`: abs(Int64.min) itself traps.
        guard let time = stored(column, as: Int64.self), (-(1 << 48)...(1 << 48)).contains(time) else { return nil }
        return time
    }
}
