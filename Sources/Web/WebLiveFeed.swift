import LiveLoop
import Platform

/// The page's live updates (`GET /events`, server-sent events): the board's listener, called on
/// the engine's thread, only nudges each connected client's stream, which keeps the newest nudge
/// alone; each client's own task then writes the state as it is by then. A client that stops
/// reading stalls its own task and nothing else; with no client a change costs one lock and an
/// empty loop, and wakes nothing.
final class WebLiveFeed: Sendable {
    private let clients = Locked<[Int: AsyncStream<Void>.Continuation]>([:])
    private let nextID = Locked(0)

    /// Called by the board after each change: must not block.
    func changed() {
        clients.withLock { clients in
            for client in clients.values { client.yield() }
        }
    }

    /// A new client's stream of nudges, and its id for `remove`.
    func add() -> (id: Int, nudges: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        clients.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func remove(_ id: Int) {
        clients.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    var count: Int { clients.withLock { $0.count } }

    /// Ends every client's stream (the server stops).
    func finishAll() {
        let all = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for client in all { client.finish() }
    }
}
