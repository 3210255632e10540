/// The password of a URL (`scheme://user:PASSWORD@host...`, as typed, percent escapes and all): the
/// one place that finds it, for every place that must not show it (messages, `status`, the
/// process list).
public enum URLPassword {
    /// Where the password is, as UTF-8 offsets into `url`; nil when the URL has none (no `@` after
    /// the scheme, or no `:` before it).
    public static func range(in url: [UInt8]) -> Range<Int>? {
        let separator = Array("://".utf8)
        guard url.count >= separator.count,
            let schemeEnd = (0...(url.count - separator.count)).first(where: {
                url[$0..<$0 + separator.count].elementsEqual(separator)
            }).map({ $0 + separator.count }),
            let at = url[schemeEnd...].firstIndex(of: UInt8(ascii: "@")),
            let colon = url[schemeEnd..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at
        else { return nil }
        return (colon + 1)..<at
    }

    /// `url` as it may be shown: its password replaced by `***`.
    public static func redacted(_ url: String) -> String {
        var bytes = Array(url.utf8)
        guard let password = range(in: bytes) else { return url }
        bytes.replaceSubrange(password, with: Array("***".utf8))
        return String(decoding: bytes, as: UTF8.self)
    }
}
