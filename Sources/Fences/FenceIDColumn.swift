/// The fences' ids in file order, as one run of bytes: each id's text (a number as written, a
/// string unescaped), where it ends, and whether it is a number. As a list of `FenceID`s a
/// country's roads took about 80 bytes an id (ids such as `osm:way/1234567890` are longer than a
/// Swift string keeps inline, so each was an allocation of its own) and as much again in the
/// table that found duplicates while loading; here they take their text and 9 to 13 bytes.
///
/// A hash table of fence indices (4 to 8 bytes an id) finds an id given twice while a file is
/// read, and a layer circle's id already taken, numbers by value (`1` and `1.0` are the same id),
/// as `FenceID.Key` compares them.
public struct FenceIDColumn: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private var text: [UInt8] = []
    /// End of each id's text in `text`.
    private var ends: [UInt32] = []
    private var isNumber: [Bool] = []
    /// Open addressing over the ids by `hash`: a fence's index, or -1; at most half full; empty
    /// while there is no id.
    private var table: [Int32] = []

    public init() {}

    /// Ids known to be distinct (a precondition).
    public init(_ ids: some Sequence<FenceID>) {
        for id in ids { appendUnique(id) }
    }

    public init(arrayLiteral ids: FenceID...) { self.init(ids) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(position: Int) -> FenceID {
        let written = String(decoding: bytes(of: position), as: UTF8.self)
        return isNumber[position] ? .number(written) : .string(written)
    }

    /// The text of id `position`: a number as written, a string unescaped (`FenceID.text`).
    public func bytes(of position: Int) -> ArraySlice<UInt8> {
        text[(position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])]
    }

    /// Whether id `position` is a JSON number.
    public func isNumber(_ position: Int) -> Bool { isNumber[position] }

    public static func == (a: FenceIDColumn, b: FenceIDColumn) -> Bool {
        a.text == b.text && a.ends == b.ends && a.isNumber == b.isNumber
    }

    /// Room for `count` ids of about `bytesEach` bytes (address space, until written).
    mutating func reserve(_ count: Int, bytesEach: Int = 20) {
        text.reserveCapacity(count * bytesEach)
        ends.reserveCapacity(count)
        isNumber.reserveCapacity(count)
    }

    /// Room in the table for `count` ids: it is written all over, so only once their number can
    /// be estimated.
    mutating func reserveLookup(_ count: Int) {
        if 2 * count > table.count { rehash(slots: Self.slots(for: count)) }
    }

    /// Appends `id` unless an id the same as it is here already; then answers that one's index
    /// and appends nothing.
    mutating func appendIfNew(_ id: FenceID) -> Int? {
        if 2 * (ends.count + 1) > table.count { rehash(slots: Self.slots(for: ends.count + 1)) }
        let (slot, found) = find(id)
        if let found { return found }
        table[slot] = Int32(ends.count)
        append(id)
        return nil
    }

    /// Appends `id`, which the caller knows is not here yet (a precondition).
    mutating func appendUnique(_ id: FenceID) {
        precondition(appendIfNew(id) == nil, "an id appended twice")
    }

    /// Appends the ids of `later` (distinct among themselves, a precondition) when none of them is
    /// here already; else appends nothing and answers false.
    mutating func appendIfAllNew(_ later: FenceIDColumn) -> Bool {
        let keptText = text.count
        let kept = ends.count
        reserveLookup(ends.count + later.count)
        for position in later.indices where appendIfNew(later[position]) != nil {
            text.removeSubrange(keptText...)
            ends.removeSubrange(kept...)
            isNumber.removeSubrange(kept...)
            rehash(slots: table.count)
            return false
        }
        return true
    }

    /// The index of the id the same as `id` (numbers by value), if any.
    public func firstIndex(sameAs id: FenceID) -> Int? {
        table.isEmpty ? nil : find(id).found
    }

    /// The index of the id written as `id` is (`7.0` is not `7`), if any.
    public func firstIndex(exactly id: FenceID) -> Int? {
        guard let index = firstIndex(sameAs: id), self[index] == id else { return nil }
        return index
    }

    private mutating func append(_ id: FenceID) {
        switch id {
        case .number(let written):
            text.append(contentsOf: written.utf8)
            isNumber.append(true)
        case .string(let written):
            text.append(contentsOf: written.utf8)
            isNumber.append(false)
        }
        precondition(text.count <= UInt32.max, "fence ids of more than 4 GiB")
        ends.append(UInt32(text.count))
    }

    /// The slot where `id` is, or the free slot where it would go.
    private func find(_ id: FenceID) -> (slot: Int, found: Int?) {
        let mask = table.count - 1
        let key = id.key
        var slot = Int(truncatingIfNeeded: Self.hash(key)) & mask
        while true {
            let index = Int(table[slot])
            if index < 0 { return (slot, nil) }
            if Self.same(key, self, index) { return (slot, index) }
            slot = (slot + 1) & mask
        }
    }

    /// Whether id `index` of `column` is `key`: a string by its text, a number by its value.
    private static func same(_ key: FenceID.Key, _ column: FenceIDColumn, _ index: Int) -> Bool {
        switch key {
        case .string(let written):
            guard !column.isNumber[index] else { return false }
            var written = written
            let bytes = column.bytes(of: index)
            return written.withUTF8 { utf8 in
                utf8.count == bytes.count
                    && bytes.withUnsafeBytes { FenceTexts.equal(UnsafeRawBufferPointer(utf8), $0) }
            }
        case .number(let value):
            guard column.isNumber[index] else { return false }
            return Double(String(decoding: column.bytes(of: index), as: UTF8.self)) == value
        }
    }

    private static func hash(_ key: FenceID.Key) -> UInt64 {
        switch key {
        case .string(let written):
            var written = written
            return written.withUTF8 { FenceTexts.hash(UnsafeRawBufferPointer($0)) }
        case .number(let value):
            return hash(number: value)
        }
    }

    /// The hash of id `index` as it is kept, the same as `hash` of its key: a string's straight
    /// from its bytes.
    private func hash(at index: Int) -> UInt64 {
        let bytes = bytes(of: index)
        if isNumber[index] { return Self.hash(number: Double(String(decoding: bytes, as: UTF8.self)) ?? .nan) }
        return bytes.withUnsafeBytes { FenceTexts.hash($0) }
    }

    /// A slot is the hash's low bits, and a whole number's bit pattern has its low bits all zero
    /// (0 to 9,999 differ in their top 20 bits only): the bits are mixed until every output bit
    /// depends on every input bit (MurmurHash3's 64-bit finalizer), or the file's ids 0, 1, 2...
    /// all probe one run of slots and a load takes quadratic time.
    static func hash(number value: Double) -> UInt64 {
        // -0 and 0 are the same number.
        var bits = (value == 0 ? 0 : value).bitPattern
        bits ^= bits >> 33
        bits &*= 0xFF51_AFD7_ED55_8CCD
        bits ^= bits >> 33
        bits &*= 0xC4CE_B9FE_1A85_EC53
        return bits ^ (bits >> 33)
    }

    /// A power of two at least twice `count`, at least 64.
    private static func slots(for count: Int) -> Int {
        var slots = 64
        while slots < 2 * count { slots *= 2 }
        return slots
    }

    private mutating func rehash(slots: Int) {
        table = [Int32](repeating: -1, count: slots)
        let mask = slots - 1
        for index in 0..<ends.count {
            var slot = Int(truncatingIfNeeded: hash(at: index)) & mask
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(index)
        }
    }
}
