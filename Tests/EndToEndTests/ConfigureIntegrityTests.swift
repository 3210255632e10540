import Foundation
import Testing

/// `gpsfence configure --integrity` against `gpsfence simulate --receiver ... --jam` on a real
/// pseudo-terminal: the receiver's own jamming and spoofing reports turned on, then read off the
/// line as UBX frames, picked out here byte by byte (docs/hardware.md).
@Suite(.serialized) struct ConfigureIntegrityTests {
    /// A UBX frame seen on the line: class, id, payload (checksum checked).
    struct Frame {
        var messageClass: UInt8
        var id: UInt8
        var payload: [UInt8]
    }

    func frames(_ bytes: [UInt8]) -> [Frame] {
        var found: [Frame] = []
        var index = 0
        while index + 8 <= bytes.count {
            guard bytes[index] == 0xB5, bytes[index + 1] == 0x62 else {
                index += 1
                continue
            }
            let length = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8
            let end = index + 6 + length + 2
            guard end <= bytes.count else { break }
            var a: UInt8 = 0
            var b: UInt8 = 0
            for byte in bytes[(index + 2)..<(end - 2)] {
                a &+= byte
                b &+= a
            }
            if a == bytes[end - 2], b == bytes[end - 1] {
                found.append(
                    Frame(
                        messageClass: bytes[index + 2], id: bytes[index + 3],
                        payload: Array(bytes[(index + 6)..<(end - 2)])))
                index = end
            } else {
                index += 2
            }
        }
        return found
    }

    /// Configures the emulated `receiver` (jammed from the start) and returns the report and two
    /// seconds of what it sends afterwards.
    func configureAndListen(_ receiver: String) throws -> (json: [String: Any], stdout: String, frames: [Frame]) {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("line.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7150,42.2806]]}"#.write(
            to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(
            ["simulate", route.path, "--speed", "10", "--loop", "--receiver", receiver, "--jam", "0+3600"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let pty = simulator.readFirstLine()
        let result = try runGPSFence(["configure", "--device", pty, "--integrity", "--json"], environment: [:])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let capture = directory.appendingPathComponent("after.nmea")
        let record = try runGPSFence(
            ["record", "--device", pty, "--baud", "9600", "--duration", "2", "--output", capture.path],
            environment: [:])
        #expect(record.status == 0, "\(record.stderr)")
        let bytes = Array((try? Data(contentsOf: capture)) ?? Data())
        return (json, result.stdout, frames(bytes))
    }

    func commands(_ json: [String: Any]) -> [String] {
        (json["steps"] as? [[String: Any]] ?? []).compactMap { $0["command"] as? String }
    }

    @Test func anM8TurnsOnItsJammingMonitorNavStatusAndMonHWAndReportsTheJam() throws {
        let (json, stdout, frames) = try configureAndListen("ublox-m8")
        #expect(json["interface"] as? String == "ubx-cfg")
        let steps = json["steps"] as? [[String: Any]] ?? []
        #expect(steps.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(steps)")
        #expect(
            commands(json) == [
                "UBX-CFG-ITFM jamming monitor on", "UBX-CFG-MSG UBX-NAV-STATUS on", "UBX-CFG-MSG UBX-MON-HW on",
            ], "\(stdout)")
        let verified = json["verified"] as? [String: Any] ?? [:]
        #expect(verified["reports"] as? [String] == ["UBX-MON-HW", "UBX-NAV-STATUS"], "\(stdout)")
        // MON-HW: jammingState in bits 2-3 of offset 22, jamInd at 45; NAV-STATUS: spoofDetState
        // in bits 3-4 of offset 7.
        let hardware = frames.filter { $0.messageClass == 0x0A && $0.id == 0x09 && $0.payload.count == 60 }
        let status = frames.filter { $0.messageClass == 0x01 && $0.id == 0x03 && $0.payload.count == 16 }
        #expect(hardware.count >= 1 && status.count >= 1, "\(frames.map { ($0.messageClass, $0.id) })")
        #expect(hardware.allSatisfy { ($0.payload[22] >> 2 & 3) >= 2 }, "jamming warning or critical")
        #expect(hardware.allSatisfy { $0.payload[45] > 40 }, "a jamming indicator well above a quiet band's")
        #expect(status.allSatisfy { $0.payload[7] >> 3 & 3 == 1 }, "no spoofing")
    }

    @Test func anM10TakesOneValueSetForMonitorNavStatusAndMonRFAndAnotherForSecSig() throws {
        let (json, stdout, frames) = try configureAndListen("ublox-m10")
        #expect(json["interface"] as? String == "ubx-valset")
        let steps = json["steps"] as? [[String: Any]] ?? []
        #expect(steps.count == 2 && steps.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(stdout)")
        #expect(commands(json).last?.contains("UBX-SEC-SIG") == true)
        let verified = json["verified"] as? [String: Any] ?? [:]
        #expect(verified["reports"] as? [String] == ["UBX-MON-RF", "UBX-NAV-STATUS", "UBX-SEC-SIG"], "\(stdout)")
        // MON-RF: one block after four bytes; its flags (offset 1) hold jammingState in bits 0-1.
        let radio = frames.filter { $0.messageClass == 0x0A && $0.id == 0x38 && $0.payload.count == 28 }
        #expect(radio.count >= 1 && radio.allSatisfy { ($0.payload[5] & 3) >= 2 }, "\(radio.map(\.payload))")
        let security = frames.filter { $0.messageClass == 0x27 && $0.id == 0x09 }
        #expect(security.count >= 1 && security.allSatisfy { $0.payload[4] & 1 == 1 }, "jamming detection on")
    }

    @Test func aMediaTekIsToldThereIsNothingToTurnOn() throws {
        let route = temporaryDirectory().appendingPathComponent("line.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7150,42.2806]]}"#.write(
            to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--speed", "10", "--loop", "--receiver", "mtk"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let pty = simulator.readFirstLine()
        let result = try runGPSFence(["configure", "--device", pty, "--integrity"], environment: [:])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("MediaTek parts send no jamming or spoofing reports"), "\(result.stdout)")
    }
}
