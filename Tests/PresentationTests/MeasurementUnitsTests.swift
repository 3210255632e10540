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

    /// 3.2004 m is 10'6" to the inch (a sign written in feet, kept in metres: shown as written).
    @Test func heightsAsSignsWriteThem() {
        #expect(MeasurementUnits.imperial.height(3.2004, rounded: .down) == "10'6\"")
        #expect(MeasurementUnits.imperial.height(3.048, rounded: .down) == "10'0\"")
        #expect(MeasurementUnits.metric.height(3.2, rounded: .down) == "3.2 m")
        #expect(MeasurementUnits.imperial.spokenHeight(3.2004, rounded: .down) == "10 feet 6")
        #expect(MeasurementUnits.metric.spokenHeight(3.2, rounded: .down) == "3 metres 20")
        // 11'1" is 3.3782 m (133 in, whole inches are exact to a tenth of a millimetre).
        #expect(MeasurementUnits.imperial.height(11 * 0.3048 + 0.0254, rounded: .down) == "11'1\"")
        #expect(MeasurementUnits.imperial.height(3.3782, rounded: .down) == "11'1\"")
    }

    /// 3.2 m is 125.98 in: a clearance is `10'5"` (to the nearest it would be `10'6"`, more room
    /// than the bridge gives), a truck of 3.2 m is `10'6"`; 3.999 m is 3.99 m as a limit, 4 m as a
    /// vehicle; 3.181 m is 10'5.2": 10'5" as a limit, 10'6" as a vehicle.
    @Test func limitsRoundDownAndTheVehicleUp() {
        #expect(MeasurementUnits.imperial.height(3.2, rounded: .down) == "10'5\"")
        #expect(MeasurementUnits.imperial.height(3.2, rounded: .up) == "10'6\"")
        #expect(MeasurementUnits.imperial.spokenHeight(3.2, rounded: .down) == "10 feet 5")
        #expect(MeasurementUnits.metric.height(3.999, rounded: .down) == "3.99 m")
        #expect(MeasurementUnits.metric.height(3.999, rounded: .up) == "4 m")
        #expect(MeasurementUnits.metric.spokenHeight(3.999, rounded: .down) == "3 metres 99")
        #expect(MeasurementUnits.imperial.height(3.181, rounded: .down) == "10'5\"")
        #expect(MeasurementUnits.imperial.height(3.181, rounded: .up) == "10'6\"")
        // 13.7 m/s is 49.32 km/h, 30.65 mph: a limit of 49 km/h, 30 mph; 8.4 m/s is 18.79 mph (18 as
        // a limit, 19 to the nearest).
        #expect(MeasurementUnits.metric.speed(13.7, rounded: .down) == "49 km/h")
        #expect(MeasurementUnits.imperial.spokenSpeed(8.4, rounded: .down) == "18 miles an hour")
        #expect(MeasurementUnits.imperial.spokenSpeed(8.4, rounded: .up) == "19 miles an hour")
        // A limit written in mph and kept in km/h to three decimals (30 mph: 48.280 km/h).
        #expect(MeasurementUnits.imperial.speed(48.280 / 3.6, rounded: .down) == "30 mph")
    }

    /// The speed against the limit it broke, never the speed as the excess: 17.3 m/s is 62.28
    /// km/h (62 to the nearest, 63 up); 13.8 m/s is 49.68 km/h (a 49 zone, not a 50 one); 50.3
    /// km/h in a 50 zone is 51, never a 50 in a 50 zone.
    @Test func speedingReadsTheSpeedInAZone() {
        #expect(MeasurementUnits.metric.speeding(17.3, limit: 50 / 3.6) == "63 km/h in a 50 zone")
        #expect(MeasurementUnits.metric.speeding(17.3, limit: 13.8) == "63 km/h in a 49 zone")
        #expect(MeasurementUnits.metric.speeding(50.3 / 3.6, limit: 50 / 3.6) == "51 km/h in a 50 zone")
        #expect(MeasurementUnits.imperial.speeding(17.3, limit: 30 * 0.44704) == "39 mph in a 30 zone")
        #expect(MeasurementUnits.nautical.speeding(3.0, limit: 2.5) == "5.9 kn in a 4.8 zone")
    }
}
