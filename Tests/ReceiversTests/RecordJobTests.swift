import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Testing
import Tools

extension PseudoTerminalTests {
    @Suite struct RecordJobTests {
        @Test func theHeaderNamesDeviceIdsRateAndStartThenTheBytesFollowAsTheyCame() throws {
            var loop = job(rate: 10, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 19200)
            defer { simulator.stop() }
            // What discovery would say for a BU-353 (CI has no USB bus to find one on).
            var info = SerialDeviceInfo(node: simulator.path)
            info.vendorID = 0x067B
            info.productID = 0x2303
            info.manufacturer = "Prolific Technology Inc."
            info.product = "USB-Serial Controller"
            info.driver = "pl2303"
            let output = temporaryDirectory() + "/capture.nmea"
            var record = RecordJob(
                device: .port(DeviceChoice.PortChoice(path: simulator.path, info: info, note: nil)),
                output: CaptureOutput(path: output))
            record.duration = 0.5
            record.autobaud = Autobaud(window: 0.4)
            record.memory = BaudMemory(directory: temporaryDirectory())
            let summary = try record.run(now: { fixedStart }, shouldStop: { false }, log: { _ in })
            #expect(summary.rate == BaudRate(19200))
            #expect(!summary.hungUp)

            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            let text = String(decoding: bytes, as: UTF8.self)
            let header = """
                # gpsfence record
                # device: \(simulator.path)
                # usb: 067b:2303 Prolific Technology Inc. USB-Serial Controller driver pl2303
                # baud: 19200 (autobaud)
                # start: 2026-02-03T10:15:02.000Z

                """
            #expect(text.hasPrefix(header))
            #expect(bytes.count - header.utf8.count == summary.bytes)
            let collector = FixCollector()
            collector.push(Array(bytes.dropFirst(header.utf8.count)))
            #expect(collector.fixes.count >= 3)
            #expect(collector.decoder.framer.counters.badChecksum == 0)
        }
    }
}
