import NMEA
import Platform
import Receivers

/// The live source a resolved `--device` names: a gpsd (docs/hardware.md) or a serial port. One
/// place for `run` and `decode --device`, so that both read a receiver the same way.
public enum FixSources {
    public static func live(
        _ device: DeviceChoice, rate: BaudRate?, autobaud: Autobaud, rollover: WeekRollover
    ) -> FixSource {
        switch device {
        case .gpsd(let address):
            return GpsdFixSource(GpsdFixSource.Configuration(address: address))
        case .port(let port):
            var configuration = Reader.Configuration(path: port.path, rate: rate)
            configuration.autobaud = autobaud
            configuration.memory = StateLocation.baudMemory
            return SerialFixSource(configuration, rollover: rollover)
        }
    }
}
