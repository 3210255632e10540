import GRDB

/// The statements a live run repeats with every event, track write and delivery, compiled once per
/// connection: `Database.execute(sql:)` compiles its SQL each time, which cost more CPU than the
/// write it made (docs/performance.md, "Live cost").
extension Database {
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
