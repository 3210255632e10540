/// What a way is on the ground, for the imports of clearances and speed limits: a road that
/// vehicles drive (kept as a corridor), an area (a car park, a building: kept as a polygon, so a
/// point inside it is inside the fence), or something else that carries the same tags (a railway's
/// `maxspeed`, a canal's, a footway's `maxheight` under a bridge), which those imports leave to
/// `--select`.
enum OSMWayKind: Equatable {
    /// `highway=` one of `roadClasses`; the class's words for a name when the road has none.
    case road(className: String)
    case area
    /// Not a road: the tag that says what it is instead (`railway=rail`), or that it has none.
    case other(example: String)

    init(_ element: OSMElement) {
        let closed = element.refs.count >= 4 && element.refs.first == element.refs.last
        let highway = element.tag(OSMTagKeys.highway)
        if closed, element.tag(OSMTagKeys.area) == "yes" || Self.isArea(element, highway: highway) {
            self = .area
        } else if let highway, let className = Self.roadClasses[highway] {
            self = .road(className: className)
        } else if let highway {
            self = .other(example: "highway=" + highway)
        } else if let railway = element.tag(OSMTagKeys.railway) {
            self = .other(example: "railway=" + railway)
        } else if let waterway = element.tag(OSMTagKeys.waterway) {
            self = .other(example: "waterway=" + waterway)
        } else {
            self = .other(example: "no highway tag")
        }
    }

    /// Closed ways that are places rather than lines: a building, a car park, a motorway's services.
    private static func isArea(_ element: OSMElement, highway: String?) -> Bool {
        if let building = element.tag(OSMTagKeys.building), building != "no" { return true }
        if element.tag(OSMTagKeys.amenity) == "parking" || element.tag(OSMTagKeys.parking) != nil { return true }
        return highway == "services" || highway == "rest_area"
    }

    /// The `highway` values of roads that cars, vans and trucks drive (the OSM wiki's Key:highway,
    /// roads and their links), with the words an unnamed one is called by.
    static let roadClasses: [String: String] = [
        "motorway": "motorway", "trunk": "trunk road", "primary": "primary road", "secondary": "secondary road",
        "tertiary": "tertiary road", "unclassified": "minor road", "residential": "residential street",
        "motorway_link": "motorway link", "trunk_link": "trunk road link", "primary_link": "primary road link",
        "secondary_link": "secondary road link", "tertiary_link": "tertiary road link",
        "living_street": "living street", "service": "service road", "road": "road", "track": "track",
        "busway": "busway",
    ]
}
