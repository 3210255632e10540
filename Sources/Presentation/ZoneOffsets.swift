import Platform

/// A time zone as the system's tz database gives it (docs/fences.md, "Rules"): the UTC offset that
/// holds from each transition on, read from the zone's TZif file (RFC 8536) under
/// `/usr/share/zoneinfo`. The one reader of those files: a fence's `timezone` and the user's zone
/// (`LocalCalendar`) both load theirs here. Only the named file is read, never the machine's own
/// zone or the `TZ` variable (`LocalCalendar.system()` is the one place that looks at those), so a
/// fence's times give the same answer on every machine with the same tz data.
///
/// Past the last transition in the file the last offset holds. Debian's files are "fat" (their
/// transitions run to 2037); a "slim" file would stop at the last rule change, and its daylight
/// saving time would be missed: the loader refuses such a file rather than answer wrongly.
public struct ZoneOffsets: Sendable, Equatable {
    public let name: String
    /// Seconds since the epoch at which each offset begins, ascending.
    let transitions: [Int64]
    /// Offset in seconds east of UTC from the matching transition on.
    let offsets: [Int32]
    /// Offset before the first transition.
    let initialOffset: Int32

    public static let utc = ZoneOffsets(name: "UTC", transitions: [], offsets: [], initialOffset: 0)
    static let directory = "/usr/share/zoneinfo"

    /// Seconds east of UTC at `seconds` since the epoch.
    public func offset(atSeconds seconds: Int64) -> Int32 {
        let index = lastTransition(atOrBefore: seconds)
        return index < 0 ? initialOffset : offsets[index]
    }

    /// Whether the zone is UTC all along (UTC's own table, under any name).
    var isUTC: Bool { initialOffset == 0 && offsets.allSatisfy { $0 == 0 } }

    /// The index of the last transition at or before `seconds` (binary search); -1 when none is.
    func lastTransition(atOrBefore seconds: Int64) -> Int {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// The first instant (seconds since the epoch) whose local time (`instant + offset`) is at or
    /// past `local`: the instant `local` names, its first occurrence when a change of offset
    /// repeats it, or the change itself when one skipped it.
    func firstInstant(atOrAfterLocal local: Int64) -> Int64 {
        // Offsets stay within a day of UTC: no instant two days before `local` reaches it.
        var index = lastTransition(atOrBefore: local - 2 * 86_400)
        while true {
            let offset = Int64(index < 0 ? initialOffset : offsets[index])
            let begins = index < 0 ? Int64.min : transitions[index]
            let ends = index + 1 < transitions.count ? transitions[index + 1] : Int64.max
            let candidate = max(begins, local - offset)
            if candidate < ends { return candidate }
            index += 1
        }
    }

    init(name: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32) {
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
    }

    /// Loads zone `name` (`Europe/Berlin`); the error says why it cannot be used.
    public init(named name: String) throws(ZoneError) {
        let allowed = name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+")
        }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw .notAName(name: name)
        }
        try self.init(file: Self.directory + "/" + name, name: name)
    }

    /// Loads the TZif file at `path` as the zone called `name` (`/etc/localtime` when it is a copy
    /// rather than a link into the tz database).
    init(file path: String, name: String) throws(ZoneError) {
        let bytes = try Self.readFile(path, name: name)
        guard let parsed = Self.parse(bytes) else {
            throw .notTZif(path: path)
        }
        guard parsed.hasFullTable else {
            throw .slim(path: path)
        }
        self.init(
            name: name, transitions: parsed.transitions, offsets: parsed.offsets,
            initialOffset: parsed.initialOffset)
    }

    static func readFile(_ path: String, name: String) throws(ZoneError) -> [UInt8] {
        do {
            return try readWholeFile(path, limit: 1 << 20)
        } catch {
            if error.call == "open" { throw .unknown(name: name, error) }
            throw .unreadable(error)
        }
    }

    /// The version 2+ (64-bit) block of a TZif file, or the version 1 block of an old one.
    static func parse(_ bytes: [UInt8]) -> (
        transitions: [Int64], offsets: [Int32], initialOffset: Int32, hasFullTable: Bool
    )? {
        var reader = BigEndianReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        var header = first
        var timeSize = 4
        if first.version >= UInt8(ascii: "2") {
            reader.skip(first.v1BlockSize)
            guard let second = reader.header() else { return nil }
            header = second
            timeSize = 8
        }
        var transitions: [Int64] = []
        for _ in 0..<header.timeCount {
            guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
            transitions.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount {
            guard let index = reader.uint8(), Int(index) < header.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var typeOffsets: [Int32] = []
        for _ in 0..<header.typeCount {
            guard let offset = reader.int32(), reader.uint8() != nil, reader.uint8() != nil else { return nil }
            typeOffsets.append(offset)
        }
        guard !typeOffsets.isEmpty else { return nil }
        // A slim file's transitions stop at the last rule change and its footer rule carries
        // the rest: a zone that still changes offset then has its last transition long ago.
        let lastTransition = transitions.last ?? Int64.min
        let footerHasDaylightRule = bytes.suffix(64).contains(UInt8(ascii: ","))
        let fullTable = !footerHasDaylightRule || lastTransition > 2_000_000_000
        return (transitions, typeIndices.map { typeOffsets[$0] }, typeOffsets[0], fullTable)
    }
}

/// Why a `timezone` cannot be used, with the name or file; `description` says it.
public enum ZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Text that is no zone name (`../../etc/passwd`).
    case notAName(name: String)
    /// No zone file of that name (the failed open names the path and why).
    case unknown(name: String, FileCallError)
    /// A zone file that could not be read.
    case unreadable(FileCallError)
    case notTZif(path: String)
    /// A zone file whose future daylight saving time is a rule, not a table.
    case slim(path: String)

    public var description: String {
        switch self {
        case .notAName(let name): "'\(name)' is not a time zone name like Europe/Berlin"
        case .unknown(let name, let error): "unknown time zone '\(name)' (no \(error.path): \(error.reason))"
        case .unreadable(let error): "cannot read \(error.path): \(error.reason)"
        case .notTZif(let path): "\(path) is not a TZif time zone file"
        case .slim(let path):
            "\(path) is a 'slim' zone file (its future daylight saving time is a rule, "
                + "not a table); install the distribution's full tzdata"
        }
    }
}

/// Big-endian fields of a TZif file.
private struct BigEndianReader {
    let bytes: [UInt8]
    var position = 0

    struct Header {
        var version: UInt8
        var counts: [Int]  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        var timeCount: Int { counts[3] }
        var typeCount: Int { counts[4] }
        /// Bytes of the version 1 data block after this header.
        var v1BlockSize: Int { timeCount * 5 + typeCount * 6 + counts[5] + counts[2] * 8 + counts[1] + counts[0] }
    }

    mutating func header() -> Header? {
        guard position + 44 <= bytes.count, bytes[position..<position + 4].elementsEqual("TZif".utf8) else {
            return nil
        }
        let version = bytes[position + 4]
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = int32(), count >= 0, count < 1 << 20 else { return nil }
            counts.append(Int(count))
        }
        return Header(version: version, counts: counts)
    }

    mutating func skip(_ count: Int) { position += count }

    mutating func uint8() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func int32() -> Int32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] { value = value << 8 | UInt32(byte) }
        position += 4
        return Int32(bitPattern: value)
    }

    mutating func int64() -> Int64? {
        guard position + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<position + 8] { value = value << 8 | UInt64(byte) }
        position += 8
        return Int64(bitPattern: value)
    }
}
