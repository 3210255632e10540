import FenceBuilders
import Testing

@testable import Fences

/// CSV fence files as spreadsheets write them: loose header names, any column order, quoted
/// fields, and every other column a property read as a GeoJSON property would be.
@Suite struct CSVSpreadsheetTests {
    @Test func headerNamesAreMatchedLoosely() throws {
        for header in [
            "id,name,lat,lon,radius_m", " ID , Name , Latitude , Longitude , Radius ", "id,name,LAT,lng,r",
            "name,long,lat,radius,id",
        ] {
            let columns = header.split(separator: ",").map { $0.filter { $0 != " " }.lowercased() }
            let values: [String: String] = [
                "id": "7", "name": "Gym", "lat": "41.88", "latitude": "41.88", "lon": "-87.63", "lng": "-87.63",
                "long": "-87.63", "longitude": "-87.63", "radius_m": "50", "radius": "50", "r": "50",
            ]
            let row = columns.map { values[$0]! }.joined(separator: ",")
            let set = try FenceSet.parse(header + "\n" + row + "\n", file: "f.csv", csv: true)
            #expect(set.ids == [.number("7")], "\(header)")
            #expect(set.name(0) == "Gym", "\(header)")
            #expect(set.circle(0)?.radius == 50, "\(header)")
            #expect(hits(set, 41.88, -87.63) == [0], "\(header)")
        }
    }

    @Test func otherColumnsAreProperties() throws {
        let csv = """
            id,name,lat,lon,radius_m,notes,clearance,approach,speed_limit_kmh,owntracks,homeassistant
            bridge,"Low bridge 10'6"" (A1, north)",42.28,-83.75,12,"cash only, ""no"" trucks",3.2,1609.344,30,true,FALSE
            cafe,Cafe,42.29,-83.75,20,,,,,,

            """
        let set = try FenceSet.parse(csv, file: "f.csv", csv: true)
        #expect(set.name(0) == "Low bridge 10'6\" (A1, north)")
        #expect(
            set.info(0).propertiesJSON
                == #"{"name":"Low bridge 10'6\" (A1, north)","radius":12,"notes":"cash only, \"no\" trucks","#
                + #""clearance":3.2,"approach":1609.344,"speed_limit_kmh":30,"owntracks":true,"homeassistant":false}"#)
        #expect(set.settings(0).approach == 1609.344)
        #expect(set.settings(0).rules?.clearance == 3.2)
        #expect(set.settings(0).rules?.speedLimit.map { abs($0 - 30 / 3.6) < 1e-9 } == true)
        // Empty cells are properties not given.
        #expect(set.info(1).propertiesJSON == #"{"name":"Cafe","radius":20}"#)
        #expect(set.settings(1).isDefault)
    }

    /// A clearance as the sign on the bridge says it, feet and inches too.
    @Test func aClearanceInFeetAndInches() throws {
        let set = try FenceSet.parse(
            "id,lat,lon,radius,clearance\nbridge,42.28,-83.75,12,10'6\"\ntunnel,42.29,-83.75,12,4.1 m\n",
            file: "f.csv", csv: true)
        #expect(set.settings(0).rules?.clearance.map { abs($0 - 3.2004) < 1e-9 } == true)
        #expect(set.settings(1).rules?.clearance == 4.1)
    }

    @Test func aBadPropertyIsNamedWithItsLine() {
        #expect(
            loadError("id,lat,lon,radius,clearance\n1,1,2,3,10 feet six\n", csv: true, file: "f.csv")
                == #"f.csv: feature 0 (id 1): line 2: clearance '10 feet six' is not a height like 3.2, 3.2 m, 10'6", 10 ft 6 in or 126 in"#
        )
        #expect(
            loadError("id,lat,lon,radius,approach\n1,1,2,3,-5\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 1): line 2: property approach must be positive or 0 (0 to 20015115 metres), not -5"
        )
        #expect(
            loadError("name,lat,lat,radius\n", csv: true, file: "f.csv")
                == "f.csv: line 1: header 'name,lat,lat,radius' has two lat or latitude columns; want at least lat,lon,radius"
        )
    }
}
