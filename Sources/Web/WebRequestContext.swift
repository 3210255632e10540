import Hummingbird
import NIOCore

/// The request context of the page's routes: Hummingbird's basic one with the request's
/// connection, which a live stream closes to drop a client that stopped reading (`WebLiveFeed`).
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
