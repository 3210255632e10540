import Delivery
import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LiveLoop
import Logging
import NIOCore
import NIOPosix
import Platform
import ServiceLifecycle

/// `run --web`: the page and its API served by Hummingbird on one event loop thread (docs/
/// running.md, "The page on a phone"), with the live updates also over a WebSocket
/// (hummingbird-websocket's HTTP/1 channel with upgrade). With no client nothing of it wakes:
/// - Hummingbird's `Application` is not used: it keeps a date header fresh with a timer that wakes
///   the process every second, client or none; this server runs the same router and writes no
///   `Date`.
/// - Swift's concurrency runs its tasks on that same event loop thread (SwiftNIO's take-over of
///   the global executor), not on libdispatch's worker threads: the first of those starts
///   libdispatch's pool monitor, a timer that fires every second for the rest of the process.
public final class WebServer: @unchecked Sendable {
    private let settings: WebSettings
    private let api: WebAPI
    private let group: any EventLoopGroup
    private var serviceGroup: ServiceGroup?
    private var task: Task<Void, Error>?
    private var broadcaster: Task<Void, Never>?
    private var listening: Int?
    private var boardToken: Int?
    private let board: LiveBoard
    /// `start` and `stop` come from the run's own thread, one at a time: the fields above are theirs.
    private let owner = OneThreadAtATime("WebServer start and stop")

    /// - Parameters:
    ///   - statePath: the run's state file, which the API reads (never writes).
    ///   - fencesPath: the run's fence file, for the map; nil when the fences come from a broker.
    ///   - answers: where an Acknowledge from the page goes, as the terminal's Enter does.
    public init(
        settings: WebSettings, board: LiveBoard, statePath: String, fencesPath: String?, answers: AlarmAnswers
    ) {
        self.settings = settings
        self.board = board
        let feed = WebLiveFeed(board: board)
        api = WebAPI(
            board: board, feed: feed, statePath: statePath, fences: WebFences(path: fencesPath), answers: answers,
            format: settings.format)
        Self.concurrencyOnTheEventLoop
        group = MultiThreadedEventLoopGroup.singleton
    }

    /// Swift's concurrency on SwiftNIO's one event loop thread, once per process, before the first
    /// task.
    private static let concurrencyOnTheEventLoop: Void = {
        NIOSingletons.groupLoopCountSuggestion = 1
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }()

    /// The port it listens on once started (the one asked for, or the kernel's choice for 0).
    public var port: Int? { listening }

    /// Binds and starts serving; throws when the address cannot be listened on (in use, not this
    /// machine's), within 10 s.
    public func start() throws {
        let claim = owner.enter()
        defer { owner.leave(claim) }
        let router = Router(context: WebRequestContext.self)
        router.add(middleware: WebGuard<WebRequestContext>(password: settings.password))
        api.routes(router)
        let responder = router.buildResponder()
        let logger = {
            var logger = Logger(label: "gpsfence.web")
            logger.logLevel = .critical
            return logger
        }()
        let started = DispatchSemaphore(value: 0)
        let bound = Locked<Int?>(nil)
        let webSocket = WebSocketLive(password: settings.password, feed: api.feed)
        let server = try HTTPServerBuilder.http1WebSocketUpgrade { head, channel, _ in
            await webSocket.shouldUpgrade(head, channel: channel)
        }.buildServer(
            configuration: ServerConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: nil, reuseAddress: true),
            eventLoopGroup: group, logger: logger,
            responder: { (request, responseWriter: consuming ResponseWriter, channel) in
                let context = WebRequestContext(source: .init(channel: channel, logger: logger))
                let response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPResponseError {
                    response = try error.response(from: request, context: context)
                } catch {
                    response = Response(status: .internalServerError)
                }
                try await responseWriter.write(response: response.head, body: response.body)
            },
            onServerRunning: { channel in
                bound.withLock { $0 = channel.localAddress?.port }
                started.signal()
            })
        let serviceGroup = ServiceGroup(
            configuration: .init(services: [server], gracefulShutdownSignals: [], logger: logger))
        self.serviceGroup = serviceGroup
        let failure = Locked<Error?>(nil)
        task = Task.detached {
            do { try await serviceGroup.run() } catch {
                failure.withLock { $0 = error }
                started.signal()
                throw error
            }
        }
        if started.wait(timeout: .now() + 10) == .timedOut {
            throw WebServerError(host: settings.host, port: settings.port, cause: .notStarted(within: 10))
        }
        if let error = failure.withLock({ $0 }) {
            throw WebServerError(host: settings.host, port: settings.port, cause: .cannotListen(error))
        }
        listening = bound.withLock { $0 }
        let feed = api.feed
        broadcaster = Task.detached { await feed.broadcast() }
        boardToken = board.listen { feed.changed() }
    }

    /// Stops listening, ends the live streams, and waits (at most 5 s) for the server to end.
    public func stop() {
        let claim = owner.enter()
        defer { owner.leave(claim) }
        if let boardToken { board.stopListening(boardToken) }
        api.feed.finishAll()
        guard let serviceGroup, let task else { return }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await serviceGroup.triggerGracefulShutdown()
            _ = try? await task.value
            done.signal()
        }
        _ = done.wait(timeout: .now() + 5)
    }
}

/// The server could not start: a runtime failure (exit status 1), said with the address.
public struct WebServerError: Error, Sendable, CustomStringConvertible {
    public enum Cause: Sendable {
        /// It did not say it listens within this many seconds.
        case notStarted(within: Double)
        /// The server's own error (an address in use, one not of this machine).
        case cannotListen(any Error)
    }

    public let host: String
    public let port: Int
    public let cause: Cause

    public var description: String {
        switch cause {
        case .notStarted(let within): "--web \(host):\(port): the server did not start within \(Int(within)) s"
        case .cannotListen(let error): "--web \(host):\(port): cannot listen there: \(error)"
        }
    }
}
