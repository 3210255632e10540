/// What `--device` names, parsed once where the argument comes in (docs/hardware.md): `auto` (the
/// USB receiver discovery finds), a serial device path, or a gpsd (`gpsd://[HOST][:PORT][/DEVICE]`).
/// Every command that reads a receiver switches over this, so a new kind of address is a compile
/// error wherever it must be handled.
public enum ReceiverAddress: Sendable, Equatable, CustomStringConvertible {
    case auto
    /// A tty path (`/dev/ttyACM0`, a `/dev/serial/by-id` link, a pseudo-terminal).
    case port(String)
    case gpsd(GpsdAddress)

    /// The schemes an address may start with; anything else that looks like `NAME://` or `NAME:/`
    /// is refused rather than opened as a file of that name.
    public static let schemes = ["gpsd"]

    public static func parse(_ argument: String) -> Result<ReceiverAddress, ReceiverAddressError> {
        if argument == "auto" { return .success(.auto) }
        if argument.isEmpty { return .failure(.empty) }
        guard let scheme = Self.scheme(of: argument) else { return .success(.port(argument)) }
        guard scheme.lowercased() == "gpsd" else {
            return .failure(.unknownScheme(argument: argument, scheme: String(scheme)))
        }
        let rest = argument.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else {
            return .failure(.gpsdWithoutTwoSlashes(argument: argument))
        }
        switch GpsdAddress.parse(GpsdAddress.scheme + rest.dropFirst(2)) {
        case .success(let address): return .success(.gpsd(address))
        case .failure(let error): return .failure(.gpsd(error))
        }
    }

    /// `NAME` of a leading `NAME:` that reads as a URL scheme (letters first, then letters, digits,
    /// `+`, `-`, `.`; followed by `/` or nothing), else nil: a path never starts that way unless it
    /// is relative and holds a colon (`./gpsd:/x` names the file).
    static func scheme(of argument: String) -> Substring? {
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let name = argument[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        let after = argument[argument.index(after: colon)...]
        guard after.isEmpty || after.hasPrefix("/") || Self.schemes.contains(name.lowercased()) else { return nil }
        return name
    }

    /// As the user would write it: `auto`, the path, or the canonical gpsd URL.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .port(let path): path
        case .gpsd(let address): address.description
        }
    }
}

/// A `--device` argument that names no receiver gpsfence can read: bad usage (exit status 2).
public enum ReceiverAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// A `NAME:` or `NAME://` prefix that names no kind of receiver.
    case unknownScheme(argument: String, scheme: String)
    /// `gpsd:` followed by something other than `//`.
    case gpsdWithoutTwoSlashes(argument: String)
    /// A gpsd URL that is not one.
    case gpsd(GpsdAddressError)

    public var description: String {
        switch self {
        case .empty: "--device '': it is empty"
        case .unknownScheme(let argument, let scheme):
            "--device '\(argument)': '\(scheme):' is not a kind of receiver gpsfence reads; give a device path, "
                + "'auto', or gpsd://[HOST][:PORT][/DEVICE]"
        case .gpsdWithoutTwoSlashes(let argument):
            "--device '\(argument)': a gpsd address starts with 'gpsd://' (two slashes): "
                + "gpsd://[HOST][:PORT][/DEVICE], e.g. gpsd://localhost:2947"
        case .gpsd(let error): "--device " + error.description
        }
    }
}
