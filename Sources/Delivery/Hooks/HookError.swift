/// A hook that cannot be used as given.
public struct HookError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
