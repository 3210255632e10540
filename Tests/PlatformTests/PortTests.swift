import Foundation
import Glibc
import SystemPackage
import Testing
import Waiting

@testable import Platform

/// The termios port on real pseudo-terminals, one test at a time: their reads are timed.
@Suite(.serialized) struct PortTests {
    @Test func opensRaw8N1AtTheRateAskedAndTheMasterSeesIt() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        #expect(terminal.lineRate() == BaudRate(9600))
        let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(4800)!)
        #expect(port.rate == BaudRate(4800))
        #expect(try port.attributes().isRaw8N1)
        #expect(terminal.lineRate() == BaudRate(4800))
        try port.setRate(BaudRate(115200)!)
        #expect(terminal.lineRate() == BaudRate(115200))
        #expect(port.isExclusive)
    }

    /// Another test's child process holds a copy of every descriptor from its fork until its exec
    /// closes them, the slave's too, so "no reader" is a state to wait for, not to find at once.
    @Test func aReaderIsSeenExactlyWhileTheSlaveIsOpen() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        #expect(waitUntil(timeout: 20) { !terminal.hasReader })
        let port = try SerialPort.open(terminal.slavePath, rate: nil)
        #expect(terminal.hasReader)
        port.close()
        #expect(waitUntil(timeout: 20) { !terminal.hasReader })
    }

    /// A hook or a voice started while the port is open must not hold the receiver: with the port
    /// inherited, the receiver stays claimed (`TIOCEXCL`) until that child ends.
    @Test func thePortIsNotInheritedByChildProcesses() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: nil)
        defer { port.close() }
        #expect(fcntl(port.descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func readsWhatArrivesTimesOutOnSilenceAndSeesTheHangUp() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: nil)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try port.read(into: buffer, timeout: 0.05) == .timeout)
        let sentence = Array("$GPTXT,01,01,02,hello*2F\r\n".utf8)
        #expect(sentence.withUnsafeBytes { terminal.writeAvailable($0) } == sentence.count)
        guard case .data(let count) = try port.read(into: buffer, timeout: 1) else {
            Issue.record("no data")
            return
        }
        #expect(Array(buffer[0..<count]) == sentence)
        terminal.close()
        #expect(try port.read(into: buffer, timeout: 1) == .hangUp)
    }

    @Test func aMissingDeviceNamesThePathAndSaysWhatToDo() {
        #expect {
            _ = try SerialPort.open("/dev/ttyNOSUCH7", rate: nil)
        } throws: { error in
            guard let error = error as? SerialError else { return false }
            return error.errno == .noSuchFileOrDirectory && error.isDisconnect && error.hint == .missing
                && error.description.contains("/dev/ttyNOSUCH7") && error.description.contains("gpsfence devices")
        }
    }

    @Test func aFileThatIsNotATerminalIsRefused() throws {
        let path = temporaryDirectory() + "/plain"
        writeFile(path, [0x24])
        #expect {
            _ = try SerialPort.open(path, rate: nil)
        } throws: { error in
            (error as? SerialError)?.errno == .inappropriateIOCTLForDevice
        }
    }

    @Test func permissionAdviceNamesTheGroupAndTheFix() {
        var permissions = DevicePermissions(
            path: "/dev/ttyUSB0", ownerUID: 0, groupID: 20, groupName: "dialout", mode: 0o660,
            processHasGroup: false, userListedInGroup: false, userName: "ann")
        #expect(permissions.fix.contains("group 'dialout'"))
        #expect(permissions.fix.contains("sudo usermod -aG dialout $USER"))
        #expect(permissions.fix.contains("log out"))
        permissions.userListedInGroup = true
        #expect(permissions.fix.contains("this login session predates it"))
        #expect(!permissions.isWorldWritable)
    }

    @Test func inspectsTheRealOwnerGroupOfADevice() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let permissions = try #require(DevicePermissions.inspect(terminal.slavePath))
        var info = stat()
        #expect(stat(terminal.slavePath, &info) == 0)
        #expect(permissions.groupID == info.st_gid)
        #expect(permissions.mode == UInt32(info.st_mode) & 0o7777)
    }
}

private func writeFile(_ path: String, _ bytes: [UInt8]) {
    let descriptor = try! FileDescriptor.open(
        FilePath(path), .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
    _ = try! descriptor.closeAfter { try descriptor.writeAll(bytes) }
}

/// A fresh directory under the system temporary directory.
private func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "gpsfence-platform-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
