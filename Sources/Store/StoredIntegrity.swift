import Events
import GRDB

extension StateStore {
    /// What the last `integrity` event said (the monitor's judgement in force), from the event
    /// log; nil when the run never said one. Read from the newest event back, so a log whose last
    /// judgement is recent costs a few rows.
    public func lastIntegrity() throws -> GeofenceEvent.Integrity? {
        let line = try database.read { db in
            try String.fetchOne(db, sql: "SELECT json FROM event WHERE type = 'integrity' ORDER BY seq DESC LIMIT 1")
        }
        guard let line, case .integrity(let integrity) = EventRecord(json: line)?.event.payload else { return nil }
        return integrity
    }
}
