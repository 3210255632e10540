import Delivery
import Fences
import Foundation
import JSONOutput
import LiveLoop
import NMEA
import Platform
import Presentation
import Store
import Views

/// `gpsfence fences add --here NAME --radius R` (docs/fences.md, "Adding a fence where you
/// stand"): a circle at the running `run`'s last usable fix, added to the fence file
/// (the run's own, unless one is given) as the last feature, the rest of the file byte for byte.
/// The file is replaced atomically with its mode kept (`atomicReplace`), so a running `run`,
/// which re-reads its fence file when it changes, picks the new fence up within seconds.
public struct FenceAddJob {
    public var statePath: String
    public var fencesPath: String?
    public var name: String
    public var radius: Double
    public var id: String?
    /// A fix older than this is refused: it is not where the user stands.
    public var maxAge: Double = 600

    public init(statePath: String, name: String, radius: Double) {
        self.statePath = statePath
        self.name = name
        self.radius = radius
    }

    /// Adds the fence; returns the line to print.
    public func run(now: Int64) throws -> String {
        guard FileManager.default.fileExists(atPath: statePath) else {
            throw StateFileMissing(path: statePath, need: .lastFix)
        }
        let receiver = try receiverAsked(StateStore(path: statePath, access: .readOnly))
        guard let lat = receiver.lastLat, let lon = receiver.lastLon, let wall = receiver.lastFixWall else {
            throw InputError.stateFile(path: statePath, .noFix)
        }
        let age = Double(now - wall) / 1000
        guard age <= maxAge else {
            throw InputError.stateFile(path: statePath, .staleFix(age: age))
        }
        guard let path = fencesPath ?? receiver.fencesPath, !path.isEmpty else {
            throw InputError.stateFile(path: statePath, .noFenceFile)
        }
        let set = try FenceFile.load(path)
        let fenceID = id ?? Self.slug(name, taken: Set(set.ids.map(\.text)))
        if set.ids.contains(where: { $0.text == fenceID }) {
            throw InputError.fenceFile(path: path, .idTaken(fenceID))
        }
        guard let original = try? readWholeFile(path) else {
            throw InputError.unreadable(path: path, cause: nil)
        }
        let updated: [UInt8]
        if path.lowercased().hasSuffix(".csv") {
            updated = Self.appendingCSV(original, id: fenceID, name: name, lat: lat, lon: lon, radius: radius)
        } else {
            guard let insertion = FeatureInsertion(original) else {
                throw InputError.fenceFile(path: path, .notAFeatureCollection)
            }
            updated = insertion.inserting(
                Self.feature(id: fenceID, name: name, lat: lat, lon: lon, radius: radius), into: original)
        }
        // The result must load: a fence that would make the run refuse its file is not written.
        let check = try updated.withUnsafeBufferPointer { (bytes) throws(FenceLoadError) in
            try FenceSet.parse(bytes: bytes, file: path, csv: path.lowercased().hasSuffix(".csv"))
        }
        guard check.count == set.count + 1 else {
            throw RuntimeFailure.fenceNotAdded(path: path)
        }
        try atomicReplace(path, with: updated)
        return HumanText.printable(
            "added \(JSONLine.quoted(fenceID)) \(JSONLine.quoted(name)): a circle of "
                + "\(formatted(radius, decimals: JSONPrecision.metres)) m at "
                + "(\(formatted(lat, decimals: JSONPrecision.coordinate)), "
                + "\(formatted(lon, decimals: JSONPrecision.coordinate))) to \(path)")
    }

    /// How long the running `run` has to answer a position request.
    static let answerTimeout = 5.0

    /// The receiver's record, with the running `run`'s last usable fix in it: the run is asked
    /// (`RunRequest`) and writes it at once, instead of at its next track write, which may be
    /// a minute away (500 m back at 30 km/h). Without a run that answers (stopped, an older
    /// version), or when it does not answer in time, the record as it is, whose fix is then
    /// judged by its age.
    private func receiverAsked(_ store: StateStore) throws -> ReceiverRecord {
        guard let pid = StateLock.requestAnswerer(statePath: statePath) else { return try store.receiver() }
        let asked = currentUTCTime().millisecondsSinceEpoch
        guard RunRequest.send(to: pid) else { return try store.receiver() }
        let deadline = monotonicSeconds() + Self.answerTimeout
        while monotonicSeconds() < deadline {
            let receiver = try store.receiver()
            // A write stamped after the request carries the run's last usable fix as of then.
            if let updated = receiver.updatedAt, updated >= asked { return receiver }
            napSeconds(0.02)
        }
        return try store.receiver()
    }

    static func feature(id: String, name: String, lat: Double, lon: Double, radius: Double) -> String {
        let out = JSONBuffer(capacity: 256)
        out.beginObject()
        out.key("type")
        out.value("Feature")
        out.key("id")
        out.value(id)
        out.key("properties")
        out.beginObject()
        out.key("name")
        out.value(name)
        out.key("radius")
        out.value(radius, decimals: JSONPrecision.metres)
        out.endObject()
        out.key("geometry")
        out.beginObject()
        out.key("type")
        out.value("Point")
        out.key("coordinates")
        out.beginArray()
        out.value(lon, decimals: JSONPrecision.coordinate)
        out.value(lat, decimals: JSONPrecision.coordinate)
        out.endArray()
        out.endObject()
        out.endObject()
        return out.withUnsafeBytes { MinifiedJSON.spaced($0) }
    }

    static func appendingCSV(
        _ text: [UInt8], id: String, name: String, lat: Double, lon: Double, radius: Double
    ) -> [UInt8] {
        var result = text
        if let last = result.last, last != UInt8(ascii: "\n") { result.append(UInt8(ascii: "\n")) }
        let latText = formatted(lat, decimals: JSONPrecision.coordinate)
        let lonText = formatted(lon, decimals: JSONPrecision.coordinate)
        let radiusText = formatted(radius, decimals: JSONPrecision.metres)
        // The file's own column order (a spreadsheet's header); the plain layout for a file
        // without a usable header, which the check after this edit then refuses.
        // By bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        let header = text.split(separator: UInt8(ascii: "\n"))
            .first { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
            .map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\u{FEFF}", with: "") }
        let fields =
            header.flatMap {
                CSVFenceLine.fields(header: $0, id: id, name: name, lat: latText, lon: lonText, radius: radiusText)
            } ?? [id, name, latText, lonText, radiusText]
        result += Array((fields.map(csvField).joined(separator: ",") + "\n").utf8)
        return result
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// An id from the name: lower case letters and digits, runs of anything else as one `-`
    /// ("Low bridge" -> "low-bridge"), `-2`, `-3`... when taken.
    static func slug(_ name: String, taken: Set<String>) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty { slug = "fence" }
        var candidate = slug
        var copy = 1
        while taken.contains(candidate) {
            copy += 1
            candidate = slug + "-\(copy)"
        }
        return candidate
    }
}
