/// What matching a fix to the road being driven needs of a road's tags, kept as its fence's
/// properties (docs/fences.md, "The road being driven"): its class (`highway`, which also marks
/// the corridor as a road), the direction of a one-way road, and whether it runs over or under
/// others (`bridge`, `tunnel`, `layer`, `level`). Where roads join is `shared_nodes`
/// (`OSMSharedNodes`).
enum OSMRoadTags {
    /// The properties of a road way, in the order written; only what the way has (most roads carry
    /// just their class).
    static func properties(_ element: OSMElement, highway: String) -> [(key: String, value: ImportedFence.Value)] {
        var properties: [(key: String, value: ImportedFence.Value)] = [("highway", .text(highway))]
        if let oneway = oneway(element, highway: highway) { properties.append(("oneway", .text(oneway))) }
        for (index, key) in [(OSMTagKeys.bridge, "bridge"), (OSMTagKeys.tunnel, "tunnel")] {
            guard let value = element.tag(index)?.trimmingSpaces, !value.isEmpty, value != "no" else { continue }
            properties.append((key, .text(value)))
        }
        for (index, key) in [(OSMTagKeys.layer, "layer"), (OSMTagKeys.level, "level")] {
            guard let text = element.tag(index), let number = OSMLength.plainNumber(text.trimmingSpaces),
                abs(number) <= 100
            else { continue }
            properties.append((key, .number(number, decimals: 1)))
        }
        return properties
    }

    /// `yes` for a one-way road driven in the order of its nodes, `-1` for one driven against it,
    /// nil for a road driven both ways. The OSM wiki's Key:oneway: `yes`, `true`, `1`, and `-1`,
    /// `reverse`; a roundabout and a motorway are one-way unless tagged otherwise; `reversible` and
    /// `alternating` roads are driven both ways (at different times).
    static func oneway(_ element: OSMElement, highway: String) -> String? {
        switch element.tag(OSMTagKeys.oneway)?.trimmingSpaces.lowercased() {
        case "yes", "true", "1": return "yes"
        case "-1", "reverse": return "-1"
        case .some: return nil
        case nil: break
        }
        let junction = element.tag(OSMTagKeys.junction)
        if junction == "roundabout" || junction == "circular" || highway == "motorway" { return "yes" }
        return nil
    }

    /// Half the width of a road of class `highway` with neither `width` nor `lanes`: the lanes such
    /// a road usually has, 3.5 m each (a motorway's and a trunk road's four, a primary or
    /// secondary road's three, two on smaller roads, one on a service road or track).
    static func defaultRadius(highway: String) -> Double {
        switch highway {
        case "motorway", "trunk": 4 * OSMFenceTags.metresPerLaneHalf
        case "primary", "secondary": 3 * OSMFenceTags.metresPerLaneHalf
        case "service", "track", "busway", "living_street": OSMFenceTags.metresPerLaneHalf + 1
        default: 2 * OSMFenceTags.metresPerLaneHalf
        }
    }
}
