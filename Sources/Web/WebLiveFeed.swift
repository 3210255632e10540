import LiveLoop
import NIOCore
import Platform

/// The page's live updates, the same frames for server-sent events (`GET /events`) and WebSocket
/// (`GET /ws`): the live state as JSON after each change the run makes.
///
/// The board's listener (`changed`, on the engine's thread) only nudges one broadcaster task, and
/// only when a client is connected: with no client a change costs one lock and wakes nothing. The
/// broadcaster waits `gatherSeconds` after a nudge, so that the changes of one receiver cycle (its
/// fix, its events' commit) make one frame, sent after the engine's round and the console's line
/// rather than beside them on the same cores. It renders the state once per frame and leaves it in
/// each client's mailbox, which
/// holds one frame: a client that reads slower than the run changes skips to the newest state
/// (stale frames are dropped, never queued). Each live connection's buffers are kept small (16 kB
/// in the kernel, where Linux would let a socket that is not read grow to 4 MB, and 16 kB in the
/// server), so a client that stops reading is noticed within seconds: one whose connection has not
/// taken a frame for `stallLimit` seconds (a page that stopped reading, a phone gone from the
/// Wi-Fi) is dropped, its connection closed. So a client holds at most two frames and those
/// buffers, and never the engine.
final class WebLiveFeed: Sendable {
    /// How long one frame may wait for a client's connection to take it before the client is
    /// dropped; checked at each change, so no timer runs for it.
    static let stallLimit = 15.0

    private let board: LiveBoard
    private let clients = Locked<[Int: WebLiveClient]>([:])
    private let nextID = Locked(0)
    private let nudges: AsyncStream<Void>
    private let nudge: AsyncStream<Void>.Continuation
    /// A change not yet in a frame: set by `changed`, taken by the broadcaster as it renders.
    private let unsent = Locked(false)

    /// How long the broadcaster gathers changes after the first: a cycle's fix and its commit are
    /// a millisecond or two apart, a 10 Hz receiver's cycles 100 ms.
    static let gatherSeconds = 0.005

    init(board: LiveBoard) {
        self.board = board
        (nudges, nudge) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Called by the board after each change: must not block.
    func changed() {
        guard clients.withLock({ !$0.isEmpty }) else { return }
        let first = unsent.withLock { unsent in
            defer { unsent = true }
            return !unsent
        }
        if first { nudge.yield() }
    }

    /// The broadcaster: runs until `finishAll`, asleep between changes.
    func broadcast() async {
        for await _ in nudges {
            try? await Task.sleep(for: .seconds(Self.gatherSeconds))
            // Taken before the state is read: a change after this nudges again.
            unsent.withLock { $0 = false }
            let frame = board.snapshot.json
            let now = monotonicSeconds()
            for client in clients.withLock({ Array($0.values) }) { client.offer(frame, now: now) }
        }
    }

    /// The most a live connection's socket holds in the kernel (`SO_SNDBUF`) and in the server
    /// (SwiftNIO's high water mark) before a write waits.
    static let connectionBuffer = 16 * 1024

    /// Serves one client on `channel` until it leaves, is dropped or the server stops: the state
    /// now, then the state after each change. `write` hands a frame to the connection and returns
    /// once the connection took it (it waits while the buffers are full); dropping the client
    /// closes `channel`, which ends a `write` that waits.
    func serve(on channel: any Channel, write: (String) async throws -> Void) async throws {
        try await channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: Self.connectionBuffer)
        try await channel.setOption(
            ChannelOptions.writeBufferWaterMark,
            value: .init(low: Self.connectionBuffer / 2, high: Self.connectionBuffer))
        let client = WebLiveClient(drop: { channel.close(promise: nil) })
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        clients.withLock { $0[id] = client }
        defer { clients.withLock { $0.removeValue(forKey: id) }?.finish() }
        try await client.write(board.snapshot.json, with: write)
        for await frame in client.frames { try await client.write(frame, with: write) }
    }

    /// The clients connected now.
    var count: Int { clients.withLock { $0.count } }

    /// Ends every client's stream and the broadcaster (the server stops).
    func finishAll() {
        nudge.finish()
        let all = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for client in all { client.finish() }
    }
}

/// One connected client: its mailbox of one frame, and since when its connection has held a frame
/// without taking it.
final class WebLiveClient: Sendable {
    let frames: AsyncStream<String>
    private let mailbox: AsyncStream<String>.Continuation
    private let writingSince = Locked<Double?>(nil)
    private let dropped = Locked(false)
    private let dropConnection: @Sendable () -> Void

    init(drop: @escaping @Sendable () -> Void) {
        (frames, mailbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
        dropConnection = drop
    }

    /// The newest frame, in place of one not yet written; or the client dropped when its connection
    /// has been stuck on a frame for longer than the limit.
    func offer(_ frame: String, now: Double) {
        if let since = writingSince.withLock({ $0 }), now - since > WebLiveFeed.stallLimit {
            drop()
        } else {
            mailbox.yield(frame)
        }
    }

    func write(_ frame: String, with write: (String) async throws -> Void) async throws {
        writingSince.withLock { $0 = monotonicSeconds() }
        defer { writingSince.withLock { $0 = nil } }
        try await write(frame)
    }

    private func drop() {
        let first = dropped.withLock { dropped in
            defer { dropped = true }
            return !dropped
        }
        guard first else { return }
        mailbox.finish()
        dropConnection()
    }

    func finish() { mailbox.finish() }
}
