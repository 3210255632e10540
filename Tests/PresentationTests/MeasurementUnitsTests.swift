import Testing

@testable import Presentation

/// What people read and hear in each system of units (`--units`).
@Suite struct MeasurementUnitsTests {
    /// 20 m/s is 72 km/h, 44.7 mph and 38.9 kn; 7.5 m/s is 27 km/h.
    @Test func speedsAreNeverMetresPerSecond() {
        #expect(MeasurementUnits.metric.speed(20) == "72 km/h")
        #expect(MeasurementUnits.imperial.speed(20) == "45 mph")
        #expect(MeasurementUnits.nautical.speed(20) == "39 kn")
        #expect(MeasurementUnits.nautical.speed(2) == "3.9 kn")
        #expect(MeasurementUnits.metric.spokenSpeed(7.5) == "27 kilometres an hour")
        #expect(MeasurementUnits.imperial.spokenSpeed(20) == "45 miles an hour")
        #expect(MeasurementUnits.nautical.spokenSpeed(20) == "39 knots")
    }

    /// 1588 m is 0.99 mi and 0.86 nm; 150 m is 492 ft.
    @Test func distancesInEachSystem() {
        #expect(MeasurementUnits.metric.distanceAhead(1588) == "1588 m")
        #expect(MeasurementUnits.imperial.distanceAhead(1588) == "0.99 mi")
        #expect(MeasurementUnits.imperial.distanceAhead(150) == "492 ft")
        #expect(MeasurementUnits.nautical.distanceAhead(1588) == "1588 m")
        #expect(MeasurementUnits.nautical.distanceAhead(3704) == "2.00 nm")
        #expect(MeasurementUnits.imperial.travelled(12_080) == "7.51 mi")
        #expect(MeasurementUnits.metric.travelled(12_080) == "12.08 km")
        #expect(MeasurementUnits.nautical.travelled(12_080) == "6.52 nm")
        #expect(MeasurementUnits.imperial.spokenDistance(1600) == "1 mile")
        #expect(MeasurementUnits.imperial.spokenDistance(90) == "300 feet")
        #expect(MeasurementUnits.nautical.spokenDistance(2778) == "1.5 nautical miles")
    }

    @Test func heightsAsSignsWriteThem() {
        #expect(MeasurementUnits.imperial.height(3.2) == "10'6\"")
        #expect(MeasurementUnits.imperial.height(3.048) == "10'0\"")
        #expect(MeasurementUnits.metric.height(3.2) == "3.2 m")
        #expect(MeasurementUnits.imperial.spokenHeight(3.2) == "10 feet 6")
        #expect(MeasurementUnits.metric.spokenHeight(3.2) == "3 metres 20")
    }
}
