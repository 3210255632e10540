import GRDB

/// The state file's connection. Every GRDB failure leaves the store here as a `StoreError` that
/// names the file and says it happened while the file was in use (a disk that refuses a write, a
/// file changed under the run), so that `classify` maps it to a runtime failure instead of
/// meeting an error type it does not know.
struct StoreDatabase: Sendable {
    let queue: DatabaseQueue
    let path: String

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try queue.read(body) } catch { throw wrapped(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try queue.write(body) } catch { throw wrapped(error) }
    }

    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try queue.writeWithoutTransaction(body) } catch { throw wrapped(error) }
    }

    private func wrapped(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(path: path, problem: .database(error), stage: .use)
    }
}
