import Glibc
import Platform
import Testing

@testable import Receivers

extension PseudoTerminalTests {
    /// What sits behind a device path, as autobaud sees it.
    @Suite struct DeviceKindTests {
        @Test func classifiesDevicesForBaudHunting() {
            #expect(DeviceKind.of("/dev/ttyACM0") == .cdcACM)
            #expect(!DeviceKind.cdcACM.huntsBaud)
            #expect(DeviceKind.of("/dev/ttyUSB3") == .usbSerialBridge)
            #expect(DeviceKind.usbSerialBridge.huntsBaud)
            #expect(DeviceKind.of("/dev/ttyAMA0") == .uart)
            #expect(DeviceKind.of("/dev/pts/4") == .pseudoTerminal)
        }

        @Test func aSymlinkIsClassifiedByWhatItPointsTo() throws {
            let directory = temporaryDirectory()
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            #expect(symlink(terminal.slavePath, directory + "/gps0") == 0)
            #expect(DeviceKind.of(directory + "/gps0") == .pseudoTerminal)
        }
    }
}
