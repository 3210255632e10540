import Testing

@testable import NMEA

/// Numbers too large for the arithmetic behind them become unknown values, never a trap
/// (found by the fuzzer, see docs/fuzzing.md).
@Suite struct OverflowTests {
    @Test func latitudeWithEighteenFractionDigits() {
        guard
            case .gga(let gga) = decode(
                nmea("GPGGA,123519,4807.038000000000000000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(abs(gga.latitude! - (48 + 7.038 / 60)) < 1e-12)
        guard
            case .gga(let zero) = decode(
                nmea("GPGGA,123519,.000000000000000000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(zero.latitude == 0)
    }

    @Test func absurdZDAYearsGiveNoDate() {
        for year in ["999999999", "99999999999999999", "10000"] {
            guard case .zda(let zda) = decode(nmea("GPZDA,201530.00,04,07,\(year),00,00")) else {
                Issue.record("not a ZDA")
                continue
            }
            #expect(zda.date == nil, "year \(year)")
        }
        let result = fixes([
            nmea("GPZDA,201530.00,04,07,999999999,00,00"),
            nmea("GPGGA,201530.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ])
        #expect(result.count == 1 && result.first?.fix.time == nil)
    }

    @Test func absurdPivotIsRejected() {
        #expect(CivilDate(iso: "99999999999999999-01-01") == nil)
        #expect(!CivilDate(year: 99_999_999_999_999, month: 1, day: 1).isValid)
    }
}
