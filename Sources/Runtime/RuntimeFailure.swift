/// A failure at run time that is not the user's input: a device that gives no NMEA, a device that
/// vanished. Reported as a message and exit status 1 (SPEC §9).
public struct RuntimeFailure: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
