import Delivery
import Events
import Fences
import Foundation
import Hummingbird
import JSONOutput
import LiveLoop
import NIOCore
import NMEA
import Presentation
import Store
import Views

/// The page's endpoints (docs/running.md, "The page on a phone"). Everything is read from the
/// state file (read-only, as `status` reads it) and the run's `LiveBoard`; the one change is the
/// alarm's answer, which goes to the engine as the terminal's Enter does.
struct WebAPI: Sendable {
    let board: LiveBoard
    let feed: WebLiveFeed
    let statePath: String
    let fences: WebFences
    let answers: AlarmAnswers
    let format: HumanFormat

    /// The most events one `GET /api/events` answers with.
    static let eventLimit = 200
    /// Where the live updates are served over a WebSocket (`WebSocketLive`).
    static let webSocketPath = "/ws"

    func routes(_ router: Router<WebRequestContext>) {
        router.get("/") { _, _ in Self.asset(WebPage.html, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.asset(WebPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.asset(WebPage.style, type: "text/css; charset=utf-8") }
        router.get("/api/status") { _, _ in try Self.json(status()) }
        router.get("/api/live") { _, _ in Self.json(board.snapshot.json) }
        router.get("/api/config") { _, _ in Self.json(config()) }
        router.get("/api/events") { request, _ in
            guard let since = Self.integer(request.uri.queryParameters["since"], default: -1) else {
                return Self.badRequest("since must be an event number (the seq of the last event seen)")
            }
            return try Self.json(events(since: since))
        }
        router.get("/api/track") { request, _ in
            let hourAgo = currentUTCTime().millisecondsSinceEpoch - 3_600_000
            guard let since = Self.since(request.uri.queryParameters["since"], default: hourAgo) else {
                return Self.badRequest("since must be a time: UTC ISO 8601 or milliseconds since 1970")
            }
            return try Self.json(track(since: since))
        }
        router.get("/api/fences") { request, _ in
            guard let box = WebFences.box(request.uri.queryParameters["bbox"]) else {
                return Self.badRequest("bbox must be south,west,north,east in degrees")
            }
            return Self.json(fences.json(south: box.south, west: box.west, north: box.north, east: box.east))
        }
        router.post("/api/ack") { _, _ in
            let alarm = board.snapshot.alarm
            answers.post(.web)
            var line = JSONLine()
            line.add("answered", alarm == .active)
            line.add("alarm", alarm?.rawValue)
            return Self.json(line.string, status: .accepted)
        }
        router.get("/events") { _, context in liveStream(context.channel) }
        // Reached only by a request that asked for no upgrade (an upgrade goes to WebSocketLive).
        router.get(RouterPath(Self.webSocketPath)) { _, _ in
            WebRefusal(
                status: .upgradeRequired, text: "this is a WebSocket: open it with Upgrade: websocket",
                headers: [.upgrade: "websocket", .connection: "Upgrade"]
            ).response
        }
    }

    /// `status --json` with the run's live state over the file's.
    func status() throws -> String {
        let report = try StatusReport.read(
            statePath: statePath, now: currentUTCTime().millisecondsSinceEpoch, calendar: format.calendar,
            live: board.snapshot)
        return StatusView.json(report)
    }

    func config() -> String {
        var line = JSONLine()
        line.add("units", format.units.rawValue)
        line.add("timezone", format.calendar.name)
        return line.string
    }

    /// `{"events":[{"seq":N,"event":{...}}...],"last":N}`: after `since`, or the latest when
    /// `since` is negative.
    func events(since: Int64) throws -> String {
        let store = try StateStore(path: statePath, access: .readOnly)
        let lines =
            since < 0
            ? try store.latestEventLines(Self.eventLimit) : try store.eventLines(after: since, limit: Self.eventLimit)
        var entries: [String] = []
        for (seq, json) in lines {
            var entry = JSONLine()
            entry.add("seq", Int(seq))
            entry.addRaw("event", json: json)
            entries.append(entry.string)
        }
        var line = JSONLine()
        line.addArray("events", json: entries)
        line.add("last", Int(lines.last?.seq ?? max(since, 0)))
        return line.string
    }

    /// `{"points":[[t,lat,lon,speed],...]}`: the written track and the run's own recent points
    /// after it, `t` in ms since 1970.
    func track(since: Int64) throws -> String {
        let store = try StateStore(path: statePath, access: .readOnly)
        var points = try store.track(from: since)
        let newest = points.last?.time ?? .min
        points += board.recentTrack(since: since).filter { $0.time > newest }
        let out = JSONBuffer()
        out.beginObject()
        out.key("points")
        out.beginArray()
        for point in points {
            out.beginArray()
            out.value(point.time)
            out.value(point.lat, decimals: JSONPrecision.coordinate)
            out.value(point.lon, decimals: JSONPrecision.coordinate)
            out.value(point.speed, decimals: 2)
            out.endArray()
        }
        out.endArray()
        out.endObject()
        return out.string
    }

    /// Server-sent events: the live state at once, then after each change the run makes
    /// (`WebLiveFeed`); a client that stops taking them is dropped by closing its `channel`.
    func liveStream(_ channel: any Channel) -> Response {
        let feed = feed
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
                try await feed.serve(on: channel) { frame in
                    try await writer.write(ByteBuffer(string: "data: " + frame + "\n\n"))
                }
                try await writer.finish(nil)
            })
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-cache",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func badRequest(_ why: String) -> Response {
        var line = JSONLine()
        line.add("error", why)
        return json(line.string, status: .badRequest)
    }

    static func integer(_ text: Substring?, default fallback: Int64) -> Int64? {
        guard let text, !text.isEmpty else { return fallback }
        return Int64(text)
    }

    /// A time as ISO 8601 UTC or milliseconds since 1970.
    static func since(_ text: Substring?, default fallback: Int64) -> Int64? {
        guard let text, !text.isEmpty else { return fallback }
        if let milliseconds = Int64(text) { return milliseconds }
        return UTCTime(iso: String(text))?.millisecondsSinceEpoch
    }
}
