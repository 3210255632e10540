import Foundation
import Platform
import Store
import SystemPackage

/// The local channel of a running run (docs/running.md, "Status of a running run"): a Unix socket
/// beside the state file (`STATE.sock`), owner-only, that answers each connection with the
/// board's `LiveState` as one JSON line and closes it. Its own thread waits in `poll` on the
/// socket and a `WakeSignal` for the stop, with no timer; a client that does not read gets what
/// the socket's queue takes (the line is far smaller) and never holds the thread or the engine.
public final class LiveChannel: @unchecked Sendable {
    private let board: LiveBoard
    private let listener: UnixSocketListener
    private let stopSignal: WakeSignal
    private let done = DispatchSemaphore(value: 0)

    /// Where the channel of the run writing `statePath` listens.
    public static func socketPath(statePath: String) -> String { statePath + ".sock" }

    /// Listens beside `statePath`; throws when the socket cannot be made (the run goes on without
    /// it, and `status` reads the state file).
    public init(board: LiveBoard, statePath: String) throws {
        self.board = board
        listener = try UnixSocketListener.listen(at: Self.socketPath(statePath: statePath))
        stopSignal = try WakeSignal()
    }

    public func start() {
        let thread = Thread { [self] in
            runThread(named: "gf-live") {
                serve()
                done.signal()
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// Ends the thread and removes the socket.
    public func stop() {
        stopSignal.signal()
        _ = done.wait(timeout: .now() + 2)
        listener.close()
    }

    private func serve() {
        while true {
            guard
                let ready = try? poll(
                    [(listener.descriptor, .readable), (stopSignal.descriptor, .readable)], timeout: nil),
                ready[1].isEmpty
            else { return }
            guard !ready[0].isEmpty else { continue }
            while let connection = try? listener.acceptOwnUser() {
                _ = try? connection.sendNow(Array((board.snapshot.json + "\n").utf8))
            }
        }
    }
}

extension LiveChannel {
    /// What the run writing `statePath` knows now, asked on its local channel; nil when no run
    /// answers (none runs, it runs an older gpsfence, or the socket is not this user's): the
    /// caller reads the state file alone.
    public static func ask(statePath: String, timeout: Double = 2) -> LiveState? {
        guard
            case .success(let bytes) = UnixSocketClient.readAll(
                from: socketPath(statePath: statePath), timeout: timeout)
        else { return nil }
        return LiveState(json: Array(bytes.prefix { $0 != 0x0A }))
    }
}
