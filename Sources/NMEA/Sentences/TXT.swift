/// TXT: a text message from the receiver (firmware version, antenna status).
///
/// `$GPTXT,01,01,02,ANTSTATUS=OK*3B`. The text stays in the sentence: `text` is its byte range in
/// the sentence body, so decoding allocates nothing.
public struct TXT: Equatable, Sendable {
    public var totalMessages: Int?
    public var messageNumber: Int?
    public var identifier: Int?
    public var text: Range<Int>

    public init(_ f: borrowing Fields) {
        totalMessages = f.integer(1)
        messageNumber = f.integer(2)
        identifier = f.integer(3)
        text = f.range(4).lowerBound..<(f.count > 4 ? f.range(f.count - 1).upperBound : f.range(4).upperBound)
    }
}
