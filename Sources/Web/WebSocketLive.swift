import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOHTTP1

/// `GET /ws`: the live updates over a WebSocket, the same frames as `/events` (`WebLiveFeed`),
/// behind the same guard (`WebGuard`, with its `Origin` check).
///
/// hummingbird-websocket answers an upgrade it is told not to make with 400 and no reason; a
/// refused one here gets the status the other endpoints give (401 with the password's challenge,
/// 403, 404), written on the connection before it is closed.
struct WebSocketLive: Sendable {
    let password: String?
    let feed: WebLiveFeed

    typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    func shouldUpgrade(_ head: HTTPRequest, channel: any Channel) async -> ShouldUpgradeResult<Handler> {
        let request = Request(head: head, body: .init(buffer: ByteBuffer()))
        let refusal =
            request.uri.path == WebAPI.webSocketPath
            ? WebGuard<WebRequestContext>.refusal(request, password: password)
            : WebRefusal(status: .notFound, text: "no WebSocket here: live updates are at \(WebAPI.webSocketPath)")
        if let refusal {
            await Self.answer(refusal, on: channel)
            return .dontUpgrade
        }
        let feed = feed
        return .upgrade([:]) { inbound, outbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Reading what the client sends (nothing but pings and its close) ends when it leaves.
                group.addTask { for try await _ in inbound {} }
                group.addTask {
                    try await feed.serve(on: channel) { frame in
                        try await outbound.writeTextMessage(frame)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// `refusal` as an HTTP/1.1 answer on the connection the upgrade was asked on, which is then
    /// closed.
    static func answer(_ refusal: WebRefusal, on channel: any Channel) async {
        let body = ByteBuffer(string: refusal.text + "\n")
        var headers = HTTPHeaders()
        for field in refusal.headers { headers.add(name: field.name.rawName, value: field.value) }
        headers.add(name: "Content-Type", value: "text/plain")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: Int(refusal.status.code)), headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        try? await channel.close()
    }
}
