/// What an element's tags make of it under the import's settings: its properties, whether it is a
/// fence at all, and why a tag it carried was not kept.
struct OSMFenceTags {
    var properties: [(key: String, value: ImportedFence.Value)] = []
    /// A road whose clearance, speed limit or truck's restriction was kept: a way that stays a
    /// corridor even when closed.
    var isRoad = false
    var isFence = false

    init(_ element: OSMElement, settings: ImportSettings, keys: OSMTagKeys, summary: inout ImportSummary) {
        var selected: [(key: String, value: ImportedFence.Value)] = []
        for selection in settings.selections {
            guard let index = keys.index(of: selection.key), let value = element.tag(index), selection.matches(value)
            else { continue }
            if !selected.contains(where: { $0.key == selection.key }) { selected.append((selection.key, .text(value))) }
        }
        let wayKind = element.kind == .way ? OSMWayKind(element) : nil
        let name = element.tag(OSMTagKeys.name) ?? element.tag(OSMTagKeys.ref)
        if let name {
            properties.append(("name", .text(name)))
        } else if case .road(let className) = wayKind {
            properties.append(("name", .text(className)))
        }
        if case .other(let example) = wayKind, selected.isEmpty, Self.carriesRestriction(element, settings: settings) {
            summary.skip("way that is not a road for vehicles (--select keeps it)", example: example)
            return
        }
        if settings.clearances,
            let text = element.tag(OSMTagKeys.maxheightPhysical) ?? element.tag(OSMTagKeys.maxheight)
        {
            switch MaxHeight.read(text) {
            case .value(let metres):
                // To a tenth of a millimetre: a height written in whole inches is exact, so it is
                // shown as written (`10'1"` is 3.0734 m; to the millimetre, 3.073 m reads 10'0").
                properties.append(("clearance", .number(metres, decimals: 4)))
                properties.append(("maxheight", .text(text)))
                isRoad = wayKind != .area
            case .skipped(let reason, let example):
                summary.skip(reason, example: example)
            }
        }
        if settings.speedLimits, element.kind == .way {
            // Each way along the road keeps its own limit (`maxspeed:forward`: in the order of
            // the way's nodes, as the corridor's line runs), the engine the one of the way driven.
            for (tag, property) in [
                (OSMTagKeys.maxspeed, "speed_limit_kmh"), (OSMTagKeys.maxspeedForward, "speed_limit_forward_kmh"),
                (OSMTagKeys.maxspeedBackward, "speed_limit_backward_kmh"),
            ] {
                guard let text = element.tag(tag) else { continue }
                switch MaxSpeed.read(text) {
                case .value(let kmh):
                    properties.append((property, .number(kmh, decimals: 3)))
                    properties.append((OSMTagKeys.fixed[tag], .text(text)))
                    isRoad = wayKind != .area
                case .skipped(let reason, let example):
                    summary.skip(reason, example: example)
                }
            }
            for index in [OSMTagKeys.maxspeedConditional] + OSMTagKeys.maxspeedOneWayConditional {
                let key = OSMTagKeys.fixed[index]
                guard let text = element.tag(index),
                    let kept = settings.propertyForms.conditional(key, text, summary: &summary)
                else { continue }
                properties.append((key, .text(kept)))
                isRoad = wayKind != .area
            }
        }
        if settings.truckRestrictions {
            for index in Array(OSMTagKeys.truck) + OSMTagKeys.hgvOneWay {
                guard let text = element.tag(index) else { continue }
                let key = OSMTagKeys.fixed[index]
                // Open to lorries (`yes`, `designated`): nothing to warn of, no fence for it.
                if key == "hgv", !["no", "destination"].contains(text.trimmingSpaces.lowercased()) { continue }
                if key.hasPrefix("maxspeed:hgv") {
                    switch MaxSpeed.read(text) {
                    case .value(let kmh): properties.append((key, .number(kmh, decimals: 3)))
                    case .skipped(let reason, let example):
                        summary.skip(reason + " (\(key))", example: example)
                        continue
                    }
                } else if let problem = settings.propertyForms.problem(key, text) {
                    summary.skip("\(key) that \(problem)", example: text)
                    continue
                } else if let number = OSMLength.plainNumber(text.trimmingSpaces) {
                    properties.append((key, .number(number, decimals: 3)))
                } else {
                    properties.append((key, .text(text.trimmingSpaces)))
                }
                isRoad = wayKind != .area
            }
            for index in OSMTagKeys.truckConditional {
                let key = OSMTagKeys.fixed[index]
                guard let text = element.tag(index),
                    let kept = settings.propertyForms.conditional(key, text, summary: &summary)
                else { continue }
                properties.append((key, .text(kept)))
                isRoad = wayKind != .area
            }
        }
        let restricted = properties.contains { $0.key != "name" }
        if isRoad, case .road = wayKind, let highway = element.tag(OSMTagKeys.highway) {
            properties += OSMRoadTags.properties(element, highway: highway)
        }
        for property in selected where !properties.contains(where: { $0.key == property.key }) {
            properties.append(property)
        }
        isFence = restricted || !selected.isEmpty
    }

    /// Whether the element has a tag that `--clearances`, `--speed-limits` or
    /// `--truck-restrictions` reads.
    private static func carriesRestriction(_ element: OSMElement, settings: ImportSettings) -> Bool {
        let heights = [OSMTagKeys.maxheight, OSMTagKeys.maxheightPhysical]
        let speeds =
            [
                OSMTagKeys.maxspeed, OSMTagKeys.maxspeedForward, OSMTagKeys.maxspeedBackward,
                OSMTagKeys.maxspeedConditional,
            ] + OSMTagKeys.maxspeedOneWayConditional
        let truck = Array(OSMTagKeys.truck) + OSMTagKeys.truckConditional + OSMTagKeys.hgvOneWay
        return (settings.clearances && heights.contains { element.tag($0) != nil })
            || (settings.speedLimits && speeds.contains { element.tag($0) != nil })
            || (settings.truckRestrictions && truck.contains { element.tag($0) != nil })
    }

    /// A way's corridor radius: `--radius`, else half its `width`, else 1.75 m a lane, else by its
    /// road class (`OSMRoadTags.defaultRadius`), else 5 m.
    static func wayRadius(_ element: OSMElement, settings: ImportSettings) -> Double {
        if let radius = settings.radius { return radius }
        if let width = element.tag(OSMTagKeys.width).flatMap(OSMLength.metres), width < 200 { return width / 2 }
        if let lanes = element.tag(OSMTagKeys.lanes).flatMap({ Int($0.trimmingSpaces) }), lanes > 0, lanes < 50 {
            return Double(lanes) * metresPerLaneHalf
        }
        if case .road = OSMWayKind(element), let highway = element.tag(OSMTagKeys.highway) {
            return OSMRoadTags.defaultRadius(highway: highway)
        }
        return defaultWayRadius
    }

    /// Half of a 3.5 m lane.
    static let metresPerLaneHalf = 1.75
    static let defaultWayRadius = 5.0
}
