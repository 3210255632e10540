import Foundation
import Geofence
import NMEA
import Store

/// Everything the field report (SPEC §14) shows, from captures or from a state file: the fences,
/// the usable fixes in time order, the events as printed, and what the receiver said.
public struct FieldReport {
    public var title: String
    public var fences: FenceSet
    /// Usable fixes, oldest first.
    public var points: [TrackPoint]
    public var events: [ReportEvent]
    public var statistics: ReceiverStatistics
    /// A pause longer than this many seconds between usable fixes is a gap in the track.
    public var gapSeconds: Double

    /// The track cut at its gaps: each stretch is continuous (no pause longer than `gapSeconds`).
    public var stretches: [ArraySlice<TrackPoint>] {
        var result: [ArraySlice<TrackPoint>] = []
        var start = 0
        let limit = Int64(gapSeconds * 1000)
        for index in points.indices.dropFirst() where points[index].time - points[index - 1].time > limit {
            result.append(points[start..<index])
            start = index
        }
        if start < points.count { result.append(points[start...]) }
        return result
    }

    /// The pauses between stretches: (last fix before, first fix after), ms.
    public var gaps: [(from: Int64, to: Int64)] {
        let parts = stretches
        return zip(parts, parts.dropFirst()).map { ($0.last!.time, $1.first!.time) }
    }
}

/// What the receiver said over the report's span (`nil`: not known, e.g. from a state file, which
/// keeps no sentence counts).
public struct ReceiverStatistics: Sendable {
    public var sentences: UInt64?
    public var badChecksums: UInt64?
    /// Receiver cycles (epochs) with and without a fix.
    public var cycles: Int?
    /// Fixes the engine processed, usable or not.
    public var fixes: Int
    public var usableFixes: Int
    public var device: String?

    public init(
        sentences: UInt64? = nil, badChecksums: UInt64? = nil, cycles: Int? = nil, fixes: Int, usableFixes: Int,
        device: String? = nil
    ) {
        self.sentences = sentences
        self.badChecksums = badChecksums
        self.cycles = cycles
        self.fixes = fixes
        self.usableFixes = usableFixes
        self.device = device
    }
}

/// One event as the report shows it, read back from its SPEC §6 JSON line.
public struct ReportEvent: Sendable {
    public var id: String
    public var type: String
    public var time: Int64
    /// Index in the report's fence set, when the fence is in it.
    public var fence: Int?
    /// The fence id as text ("bridge-1", "7"), empty for events without a fence.
    public var fenceID: String
    public var fenceName: String?
    public var lat: Double?
    public var lon: Double?
    public var json: String

    /// Parses one printed event; nil for a line that is not one.
    public init?(json line: String, fences: FenceSet) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = object["id"] as? String, let type = object["type"] as? String,
            let timeText = object["time"] as? String, let time = UTCTime(iso: timeText)
        else { return nil }
        self.id = id
        self.type = type
        self.time = time.millisecondsSinceEpoch
        json = line
        fenceID = ""
        if let fence = object["fence"] as? [String: Any] {
            fenceName = fence["name"] as? String
            if let text = fence["id"] as? String {
                fenceID = text
                self.fence = fences.ids.firstIndex(of: .string(text))
            } else if let number = fence["id"] as? NSNumber {
                fenceID = number.stringValue
                // Numbers compare by value: the file may have written 7 as 7.0.
                self.fence = fences.ids.firstIndex {
                    if case .number(let text) = $0 { return Double(text) == number.doubleValue }
                    return false
                }
            }
        }
        if let location = object["location"] as? [String: Any] {
            lat = (location["lat"] as? NSNumber)?.doubleValue
            lon = (location["lon"] as? NSNumber)?.doubleValue
        }
    }
}

extension UTCTime {
    /// Parses the event time format, `2026-02-03T10:15:02.000Z` (fraction optional).
    public init?(iso text: String) {
        let characters = Array(text.utf8)
        guard characters.count >= 20, characters.last == UInt8(ascii: "Z"),
            let date = CivilDate(iso: String(decoding: characters[0..<10], as: UTF8.self)), date.isValid,
            characters[10] == UInt8(ascii: "T")
        else { return nil }
        let clock = String(decoding: characters[11..<(characters.count - 1)], as: UTF8.self).split(separator: ":")
        guard clock.count == 3, let hours = Int(clock[0]), let minutes = Int(clock[1]), let seconds = Double(clock[2]),
            (0..<24).contains(hours), (0..<60).contains(minutes), seconds >= 0, seconds < 61
        else { return nil }
        let milliseconds = (hours * 3600 + minutes * 60) * 1000 + Int((seconds * 1000).rounded())
        self.init(date: date, timeOfDay: TimeOfDay(milliseconds: milliseconds))
    }
}
