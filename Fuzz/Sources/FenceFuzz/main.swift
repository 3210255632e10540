import Events
// libFuzzer entry point over fence files: bytes -> GeoJSON or CSV loader -> FenceSet
// -> containment, nearest fences, distances, and the event engine driven through the fences.
//
// Besides "does not crash" (no Swift trap: overflow, Double -> Int conversion, bounds; no ASan
// report), each input checks:
// - a refused file gives a message that names the file;
// - every event renders to one line of JSON, and every human rendering of fence data holds no
//   control character (HumanText).
// The first byte picks the format (bit 0: CSV), the last 64 bytes also serve as query points.
import Fences
import NMEA
import Presentation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let csv = data[0] & 1 == 1
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let builder: FenceSetBuilder
    do {
        builder = try FenceSet.parse(bytes: bytes, file: "fuzz", csv: csv)
    } catch {
        precondition(error.message.hasPrefix("fuzz"), "message does not name the file: \(error.message)")
        return 0
    }
    let fences = builder.build()
    exercise(fences, points: points(bytes))
    return 0
}

/// Query points: fixed ones (poles, antimeridian, 0,0) and some read from the input's tail.
func points(_ bytes: UnsafeBufferPointer<UInt8>) -> [(lat: Double, lon: Double)] {
    var list: [(lat: Double, lon: Double)] = [(0, 0), (90, 180), (-90, -180), (45, 7), (45, 179.9999), (-33, -70)]
    var index = max(0, bytes.count - 64)
    while index + 4 <= bytes.count {
        let a = Double(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])) / 65535
        let b = Double(UInt16(bytes[index + 2]) << 8 | UInt16(bytes[index + 3])) / 65535
        list.append((a * 180 - 90, b * 360 - 180))
        index += 4
    }
    return list
}

func exercise(_ fences: FenceSet, points: [(lat: Double, lon: Double)]) {
    let hits = FenceHits()
    for index in 0..<min(fences.count, 16) {
        _ = FenceID.string(fences.name(index) ?? "").json
        for text in [fences.name(index) ?? "", fences.ids[index].description] {
            let shown = HumanText.printable(text)
            precondition(!shown.unicodeScalars.contains(where: HumanText.isControl), "control character shown")
        }
        _ = fences.geometryHash(index)
    }
    for point in points {
        fences.fences(containingLat: point.lat, lon: point.lon, into: hits)
        _ = fences.nearestFences(lat: point.lat, lon: point.lon, count: 3)
    }
    // The engine: fixes walking through the query points, one a second, plus a few days' gap
    // (dwell, stale), with speed and track so that approach and cross run too.
    var settings = EventSettings()
    settings.heartbeat = 30
    settings.approach = 500
    let engine = EventEngine(fences: fences, settings: settings)
    var time: Int64 = 1_770_000_000_000
    for (step, point) in points.enumerated() {
        time += step == 3 ? 3 * 86_400_000 : 1000
        let fix = Fix(
            time: UTCTime(millisecondsSinceEpoch: time), timeOfDay: TimeOfDay(milliseconds: 0),
            latitude: point.lat, longitude: point.lon, speed: 30, track: Double(step * 47 % 360), mode: .threeD,
            accuracy: 5)
        engine.process(fix) { event in
            let line = event.json(fences: fences)
            precondition(
                line.first == "{" && line.last == "}" && !line.utf8.contains { $0 < 0x20 }, "bad JSON: \(line)")
            _ = event.id(fences: fences)
        }
    }
    engine.tick(UTCTime(millisecondsSinceEpoch: time + 86_400_000)) { _ in }
    let restored = EventEngine(fences: fences, settings: settings)
    restored.restore(engine.snapshot())
}
