import Events
// libFuzzer entry point over option values and settings. The input is text, one value a
// line, in the order of `names` below, each parsed as ArgumentParser parses a Double option
// (`Double(String)`: accepts `inf`, `nan`, `1e300`, `0x1p-1074`...). Values the range checks accept
// must run through the event engine (and the arithmetic the runtime does with them) without a
// trap; the per-fence ones are written verbatim into a fence file as JSON numbers, which the
// loader must either refuse with a message naming the feature and property, or accept with values
// that run as well.
import Fences
import NMEA

let names = [
    "dwell", "hysteresis", "exit-confirm", "max-accuracy", "stale", "approach", "heartbeat",
    "replay-speed", "simulate-rate", "simulate-speed", "duration", "exec-timeout", "exec-concurrency",
    "fence-dwell", "fence-hysteresis", "fence-approach", "radius", "step", "fix-speed", "track", "accuracy",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func raw(_ name: String) -> String? {
        let index = names.firstIndex(of: name)!
        return index < lines.count ? lines[index] : nil
    }
    func number(_ name: String) -> Double? { raw(name).flatMap { Double($0) } }

    var settings = EventSettings()
    if let v = number("dwell") { settings.dwell = v }
    if let v = number("hysteresis") { settings.hysteresis = v }
    if let v = raw("exit-confirm").flatMap({ Int($0) }) { settings.exitConfirm = v }
    if let v = number("max-accuracy") { settings.maxAccuracy = v }
    if let v = number("stale") { settings.stale = v }
    settings.approach = number("approach")
    settings.heartbeat = number("heartbeat")
    let settingsAccepted = settings.problem == nil
    if let problem = settings.problem { precondition(problem.hasPrefix("--"), "message names no option: \(problem)") }

    // The runtime's own arithmetic on accepted values (ReplayJob, SimulateJob, the hook timeout).
    if let speed = number("replay-speed"), Limits.replaySpeed(speed) == nil {
        let elapsed = 253_402_300_800.0 / speed  // year 0 to 9999, in seconds of real time
        _ = UInt64(min(max(0, elapsed), 1e9) * 1e9)
    }
    if let rate = number("simulate-rate"), Limits.simulateRate(rate) == nil { _ = Int64((1000 / rate).rounded()) }
    if let speed = number("simulate-speed"), Limits.simulateSpeed(speed) == nil {
        _ = Limits.milliseconds(Limits.maxMetres * 1000 / speed)  // a thousand half-circumferences
    }
    if let duration = number("duration"), Limits.recordDuration(duration) == nil { _ = Int64(duration * 1e9) }
    if let timeout = number("exec-timeout"), Limits.execTimeout(timeout) == nil { _ = Int64(timeout * 1e9) }
    _ = raw("exec-concurrency").flatMap { Int($0) }.map(Limits.execConcurrency)

    // A fence with the per-fence values written as they came, when they look like JSON numbers.
    var properties = "\"radius\":" + jsonNumber(raw("radius"), otherwise: "50")
    for (key, name) in [("dwell", "fence-dwell"), ("hysteresis", "fence-hysteresis"), ("approach", "fence-approach")] {
        if let value = raw(name), isJSONNumberText(value) { properties += ",\"\(key)\":\(value)" }
    }
    let file =
        #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"f","geometry":{"type":"Point","coordinates":[7,45]},"properties":{"#
        + properties + "}}]}"
    let fences: FenceSet
    do {
        fences = try FenceSet.parse(file, file: "fuzz.geojson")
    } catch {
        precondition(error.message.hasPrefix("fuzz.geojson: feature 0 (id \"f\"): "), "message: \(error.message)")
        return 0
    }
    guard settingsAccepted else { return 0 }

    // Fixes through the fence and out again, `step` seconds apart (a time past year 9999 ends it:
    // no receiver time goes there).
    let engine = EventEngine(fences: fences, settings: settings)
    let step = Limits.milliseconds(min(max(number("step") ?? 1, 0.001), 1e9))
    var time: Int64 = 1_770_000_000_000
    let offsets = [-0.01, -0.001, 0, 0, 0.0001, 0.001, 0.01, 0.1, 0.01, 0, 0, 0]
    for (index, offset) in offsets.enumerated() {
        time += step
        guard time < 253_402_300_800_000 else { break }
        let fix = Fix(
            time: UTCTime(millisecondsSinceEpoch: time), timeOfDay: TimeOfDay(milliseconds: 0),
            latitude: 45 + offset, longitude: 7, speed: number("fix-speed"), track: number("track"), mode: .threeD,
            accuracy: number("accuracy"))
        engine.process(fix) { event in _ = event.json(fences: fences) }
        if index % 4 == 3 { engine.tick(UTCTime(millisecondsSinceEpoch: time + step / 2)) { _ in } }
    }
    return 0
}

func isJSONNumberText(_ text: String) -> Bool {
    guard !text.isEmpty, text.utf8.count < 400 else { return false }
    return text.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x65 || $0 == 0x45
    }
}

func jsonNumber(_ text: String?, otherwise: String) -> String {
    guard let text, isJSONNumberText(text) else { return otherwise }
    return text
}
