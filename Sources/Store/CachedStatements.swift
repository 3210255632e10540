import GRDB

/// The statements a live run repeats with every event, track write and delivery, compiled once per
/// connection: `Database.execute(sql:)` compiles its SQL again at every call, for SQL that never
/// changes.
extension Database {
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
