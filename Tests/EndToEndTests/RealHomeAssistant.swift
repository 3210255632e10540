import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// A real Home Assistant of one `HomeAssistantRelease` (PyPI, made once and cached by its script)
/// started headless with `--skip-pip` on a temporary config folder: its MQTT and
/// OwnTracks integrations are config entries pointed at `broker`, HTTP listens on a free loopback
/// port, and the `statedump` custom component (Tests/Support/homeassistant) writes its states to
/// `states.json` and every state change to `changes.jsonl`. Stopped by pid.
final class RealHomeAssistant {
    struct Zone {
        var name: String
        var latitude: Double
        var longitude: Double
        var radius: Double
    }

    /// One entity as Home Assistant has it.
    struct Entity {
        var id: String
        var state: String
        var attributes: [String: Any]
        /// The name of the device the entity belongs to (device registry), if any.
        var device: String?

        init?(_ json: [String: Any]) {
            guard let id = json["entity_id"] as? String else { return nil }
            self.id = id
            state = json["state"] as? String ?? ""
            attributes = json["attributes"] as? [String: Any] ?? [:]
            device = json["device"] as? String
        }

        var latitude: Double? { attributes["latitude"] as? Double }
        var longitude: Double? { attributes["longitude"] as? Double }
    }

    let release: HomeAssistantRelease
    let config: URL
    let broker: MosquittoBroker
    private(set) var process: Process?

    static let support = packageRoot.appendingPathComponent("Tests/Support/homeassistant")

    /// Writes the config folder (home at `home`, `zones`) and starts Home Assistant.
    init(
        _ release: HomeAssistantRelease, broker: MosquittoBroker, home: (latitude: Double, longitude: Double),
        zones: [Zone]
    ) throws {
        self.release = release
        self.broker = broker
        config = temporaryDirectory().appendingPathComponent("homeassistant")
        let storage = config.appendingPathComponent(".storage")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.support.appendingPathComponent("custom_components"),
            to: config.appendingPathComponent("custom_components"))
        let zoneList = zones.map {
            "{name: \"\($0.name)\", latitude: \($0.latitude), longitude: \($0.longitude), radius: \($0.radius)}"
        }
        let configuration = try String(
            contentsOf: Self.support.appendingPathComponent("configuration.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "HOME_LATITUDE", with: String(home.latitude))
        .replacingOccurrences(of: "HOME_LONGITUDE", with: String(home.longitude))
        .replacingOccurrences(of: "HTTP_PORT", with: String(try freeLoopbackPort()))
        .replacingOccurrences(of: "ZONES", with: "[" + zoneList.joined(separator: ", ") + "]")
        try configuration.write(
            to: config.appendingPathComponent("configuration.yaml"), atomically: true, encoding: .utf8)
        let entries = try String(
            contentsOf: Self.support.appendingPathComponent("core.config_entries.template"), encoding: .utf8
        )
        .replacingOccurrences(of: "PORT", with: String(broker.port))
        try entries.write(to: storage.appendingPathComponent("core.config_entries"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts Home Assistant on the config folder and returns once it has said `online` on
    /// `homeassistant/status` (its birth message: subscribed to discovery, started).
    func start() throws {
        let launcher = try release.launcher.get()
        let birth = try broker.subscribe("homeassistant/status")
        defer { birth.stop() }
        let process = childProcess(launcher.executable, launcher.arguments(config.path))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard birth.lines.wait(timeout: 120, until: { $0.contains("homeassistant/status online") }) else {
            stop()
            throw NotStarted(log: String(log.suffix(3000)))
        }
    }

    struct NotStarted: Error, CustomStringConvertible {
        var log: String
        var description: String { "Home Assistant did not say online within 120 s: \(log)" }
    }

    /// SIGTERM (Home Assistant saves its registries and says `offline`), then waits for the exit.
    func stop() {
        guard let process, process.isRunning else { return }
        terminate(process, name: "Home Assistant", grace: 30)
        self.process = nil
    }

    /// Its log's lines at WARNING or above that name gpsfence's entities, `object_id`, or come from
    /// the MQTT integration: what a user would be asked to fix.
    func complaints(about words: [String]) -> [String] {
        log.split(separator: "\n").map(String.init).filter { line in
            (line.contains(" WARNING ") || line.contains(" ERROR "))
                && (words.contains { line.contains($0) } || line.contains("object_id")
                    || line.contains("[homeassistant.components.mqtt"))
        }
    }

    /// The repair issues Home Assistant saved (on its stop) that name one of `words`.
    func repairs(about words: [String]) -> [String] {
        let url = config.appendingPathComponent(".storage/repairs.issue_registry")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let issues = (jsonObject(text)?["data"] as? [String: Any])?["issues"] as? [[String: Any]] ?? []
        return issues.map { "\($0)" }.filter { issue in words.contains { issue.contains($0) } }
    }

    var log: String {
        (try? String(contentsOf: config.appendingPathComponent("home-assistant.log"), encoding: .utf8)) ?? ""
    }

    /// Presses a button entity through Home Assistant's `button.press` service (within half a
    /// second: the `statedump` component takes `press.txt`).
    func press(_ entityID: String) throws {
        try (entityID + "\n").write(
            to: config.appendingPathComponent("press.txt"), atomically: true, encoding: .utf8)
    }

    /// Every state, by entity id (the last dump, at most half a second old).
    func states() -> [String: Entity] {
        guard let data = try? Data(contentsOf: config.appendingPathComponent("states.json")),
            let all = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return all.compactMapValues(Entity.init)
    }

    /// Every state change so far, in order.
    func changes() -> [Entity] {
        guard let text = try? String(contentsOf: config.appendingPathComponent("changes.jsonl"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { jsonObject(String($0)).flatMap(Entity.init) }
    }

    /// Waits (polling the dump) until `condition` holds for the states; false on the timeout (an
    /// upper bound for a loaded CI machine: a pass returns as soon as the states are there).
    @discardableResult
    func wait(timeout: Double = 60, until condition: ([String: Entity]) -> Bool) -> Bool {
        waitUntil(timeout: timeout, every: 0.2) { condition(states()) }
    }

    deinit { stop() }
}

/// The fixes of an NMEA capture (GGA position, RMC or GGA time of day), read here independently
/// of gpsfence's own decoder: what a test compares Home Assistant's positions with.
struct CaptureFixes {
    struct Fix {
        var secondOfDay: Double
        var latitude: Double
        var longitude: Double
    }

    var fixes: [Fix] = []

    init(_ url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        // Split on any line end: "\r\n" is one Character, which a split on "\n" never finds.
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: "*").first.map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            guard let fields, fields.count > 6, fields[0].hasSuffix("GGA"), fields[6] != "0",
                let time = Self.secondOfDay(fields[1]), let latitude = Self.degrees(fields[2], fields[3]),
                let longitude = Self.degrees(fields[4], fields[5])
            else { continue }
            fixes.append(Fix(secondOfDay: time, latitude: latitude, longitude: longitude))
        }
    }

    /// The fixes of the last `seconds` of the capture.
    func last(_ seconds: Double) -> [Fix] {
        guard let end = fixes.last?.secondOfDay else { return [] }
        return fixes.filter { $0.secondOfDay >= end - seconds }
    }

    static func secondOfDay(_ field: Substring) -> Double? {
        guard field.count >= 6, let hours = Double(field.prefix(2)), let minutes = Double(field.dropFirst(2).prefix(2)),
            let seconds = Double(field.dropFirst(4))
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` and a hemisphere, as degrees.
    static func degrees(_ field: Substring, _ hemisphere: Substring) -> Double? {
        guard let value = Double(field) else { return nil }
        let whole = (value / 100).rounded(.towardZero)
        let degrees = whole + (value - whole * 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -degrees : degrees
    }
}
