import Foundation
import Jobs
import LiveLoop
import Platform
import Receivers
import Testing
import Tools

extension PseudoTerminalTests {
    /// `doctor` against the simulator, with a fake /proc holding ModemManager and a gpsd that has
    /// the port open.
    @Suite struct DoctorTests {
        func fakeProc(holding device: String) throws -> String {
            let root = temporaryDirectory()
            let fm = FileManager.default
            for (pid, name) in [(123, "ModemManager"), (456, "gpsd"), (789, "bash")] {
                try fm.createDirectory(atPath: "\(root)/\(pid)/fd", withIntermediateDirectories: true)
                try (name + "\n").write(toFile: "\(root)/\(pid)/comm", atomically: true, encoding: .utf8)
                try fm.createSymbolicLink(atPath: "\(root)/\(pid)/fd/0", withDestinationPath: "/dev/null")
            }
            try fm.createSymbolicLink(atPath: "\(root)/456/fd/3", withDestinationPath: device)
            return root
        }

        @Test func reportsServicesPortHoldersAndTheRateEachWithItsFix() throws {
            var loop = job(rate: 10, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 38400)
            defer { simulator.stop() }
            var doctor = DoctorJob(address: .port(simulator.path))
            doctor.processes = ProcessTable(root: try fakeProc(holding: simulator.path))
            doctor.autobaud = Autobaud(window: 0.4)
            doctor.discovery = { DeviceDiscovery.scan(sysfs: SysfsDevices(root: temporaryDirectory())) }
            let findings = doctor.run { _ in }

            let modemManager = try #require(findings.first { $0.text.hasPrefix("ModemManager is running (pid 123)") })
            #expect(modemManager.level == .warning)
            #expect(modemManager.fix?.contains("ID_MM_DEVICE_IGNORE") == true)
            #expect(findings.contains { $0.level == .warning && $0.text.hasPrefix("gpsd is running (pid 456)") })
            let holder = try #require(findings.first { $0.text == "\(simulator.path) is open in gpsd (pid 456)" })
            #expect(holder.level == .problem)
            #expect(holder.fix?.contains("systemctl stop gpsd") == true)
            // gpsd holds it: the first fix offered is to share the receiver through gpsd.
            #expect(holder.fix?.contains("gpsfence run --device gpsd://localhost:2947\(simulator.path)") == true)
            #expect(findings.contains { $0.level == .ok && $0.text.hasPrefix("valid NMEA at 38400 baud") })
            #expect(findings.contains { $0.level == .ok && $0.text.contains("this user can open it") })
        }

        @Test func aSilentPortIsAProblemWithAFix() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            var doctor = DoctorJob(address: .port(terminal.slavePath))
            doctor.processes = ProcessTable(root: temporaryDirectory())
            var autobaud = Autobaud(window: 0.05)
            autobaud.candidates = [BaudRate(9600)!, BaudRate(4800)!]
            doctor.autobaud = autobaud
            doctor.discovery = { DeviceDiscovery.scan(sysfs: SysfsDevices(root: temporaryDirectory())) }
            let findings = doctor.run { _ in }
            let silent = try #require(
                findings.first { $0.text.hasPrefix("no bytes at all from \(terminal.slavePath)") })
            #expect(silent.level == .problem)
            #expect(silent.fix != nil)
        }
    }
}

@Suite struct KernelConsoleTests {
    @Test func aSerialConsoleOnTheGPSUARTIsFound() {
        let pi = "coherent_pool=1M 8250.nr_uarts=1 console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait\n"
        #expect(DoctorJob.kernelConsoleUses("ttyAMA0", commandLine: pi))
        #expect(DoctorJob.kernelConsoleUses("ttyS0", commandLine: pi))
        #expect(!DoctorJob.kernelConsoleUses("ttyACM0", commandLine: pi))
        #expect(DoctorJob.kernelConsoleUses("ttyS0", commandLine: "console=ttyS0,9600n8 quiet"))
        #expect(!DoctorJob.kernelConsoleUses("ttyAMA0", commandLine: "console=tty1 root=/dev/mmcblk0p2"))
    }
}
