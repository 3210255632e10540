/// An exit `delay`'s count on its fence's row (docs/fences.md, "delay"): the fix time of the
/// first fix of the run beyond the exit distance, NULL while none runs. A restart takes the count
/// back instead of beginning it again.
enum ExitDelaySchema {
    static let migrationName = "exit-delay-since"
    static let sql = "ALTER TABLE fence_state ADD COLUMN exit_delay_since INTEGER"
}
