/// Bad input or usage: a message and exit status 2 (docs/running.md).
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// A failure at run time that is not the user's input: a device that gives no NMEA, a device that
/// vanished, a disk that refuses a write. A message and exit status 1 (docs/running.md).
public struct RuntimeFailure: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
