import Events
import Fences
import Foundation
import JSONOutput
import NMEA
import Presentation
import Store

/// The field report as one self-contained HTML page (docs/report.md): inline CSS, SVG and a little
/// script, nothing fetched. The map and timeline are drawn here, as static SVG, so the page shows
/// everything without its script; the script only adds the details on hover, tap or keyboard.
public enum ReportHTML {
    /// Drawing width of the map and the timeline (SVG units; the page scales them).
    static let width = 1000.0
    /// Track points closer than this (SVG units) to the simplified line are not drawn.
    static let tolerance = 0.5

    public static func render(_ report: FieldReport) -> String {
        var page = Page()
        let span = report.points.isEmpty ? nil : (report.points.first!.time, report.points.last!.time)
        page.add("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.add("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        page.add(
            "<title>gpsfence field report: \(escape(report.title))</title>\n<style>\(css)</style>\n</head>\n<body>\n")
        page.add("<header><h1>Field report</h1><p class=\"sub\">\(escape(report.title))</p>")
        if let span {
            page.add("<p>\(report.format.time(span.0)) to \(report.format.time(span.1)) · ")
            page.add(
                "\(duration(Double(span.1 - span.0) / 1000)) · \(report.format.units.travelled(pathLength(report))) · \(report.events.count) events</p>"
            )
        } else {
            page.add("<p>No usable fix in this input · \(report.events.count) events</p>")
        }
        page.add("</header>\n<main>\n")
        let projection = MapProjection(report)
        page.add(mapSection(report, projection))
        page.add(timelineSection(report))
        page.add(eventTable(report))
        page.add(fenceSummary(report))
        page.add(receiverSection(report))
        page.add("</main>\n")
        page.add("<script type=\"application/json\" id=\"report-data\">\(eventData(report))</script>\n")
        page.add("<script>\(script)</script>\n</body>\n</html>\n")
        return page.text
    }

    // MARK: - Map

    static func mapSection(_ report: FieldReport, _ map: MapProjection) -> String {
        var svg = ""
        svg += "<section id=\"map-section\"><h2>Map</h2>\n"
        svg +=
            "<svg id=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(map.height))\" role=\"img\" aria-label=\"Map of the track, fences and events\">\n"
        svg +=
            "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(map.height))\"/>\n<g class=\"fences\">\n"
        let withEvents = Set(report.events.compactMap(\.fence))
        for fence in 0..<report.fences.count where withEvents.contains(fence) || map.shows(fence: fence, report.fences)
        {
            var d = ""
            for ring in report.fences.outline(fence) {
                for (index, point) in ring.enumerated() {
                    let (x, y) = map.point(lat: point.lat, lon: point.lon)
                    d += (index == 0 ? "M" : "L") + fmt(x) + " " + fmt(y)
                }
                d += "Z"
            }
            let info = report.fences.info(fence)
            // An unnamed fence is labelled by its id as written, not as JSON (no quotes).
            let label = escape(info.name ?? info.id.text)
            svg +=
                "<path class=\"fence\" fill-rule=\"evenodd\" d=\"\(d)\"><title>\(label) [\(escape(info.id.text))]</title></path>\n"
            if let ring = report.fences.outline(fence).first, let top = ring.max(by: { $0.lat < $1.lat }) {
                let (x, y) = map.point(lat: top.lat, lon: top.lon)
                let place = labelPlace(x: x, y: y, characters: (info.name ?? info.id.text).count, height: map.height)
                svg += "<text class=\"fence-label\" x=\"\(fmt(place.x))\" y=\"\(fmt(place.y))\">\(label)</text>\n"
            }
        }
        svg += "</g>\n<g class=\"track\">\n"
        for stretch in report.stretches { svg += trackPolylines(stretch, map) }
        svg += "</g>\n"
        if let first = report.points.first, let last = report.points.last {
            let a = map.point(lat: first.lat, lon: first.lon)
            let b = map.point(lat: last.lat, lon: last.lon)
            svg +=
                "<g class=\"ends\"><rect x=\"\(fmt(a.x - 5))\" y=\"\(fmt(a.y - 5))\" width=\"10\" height=\"10\"><title>start</title></rect>"
            svg +=
                "<rect x=\"\(fmt(b.x - 5))\" y=\"\(fmt(b.y - 5))\" width=\"10\" height=\"10\" class=\"end\"><title>end</title></rect></g>\n"
        }
        svg += "<g class=\"events\">\n"
        for event in report.events {
            let (x, y) = map.eventPoint(event, report)
            svg += "<g class=\"marker \(event.kind.reportClass)\" tabindex=\"0\" data-event-id=\"\(escape(event.id))\" "
            svg += "data-event-type=\"\(escape(event.type))\" data-fence-id=\"\(escape(event.fenceID))\">"
            svg += "<circle cx=\"\(fmt(x))\" cy=\"\(fmt(y))\" r=\"7\"/>"
            svg +=
                "<title>\(escape(event.type)) \(escape(event.fenceName ?? event.fenceID)) \(report.format.time(event.time))</title></g>\n"
        }
        svg += "</g>\n" + scaleBar(map, units: report.format.units) + "</svg>\n"
        // The accuracy classes' bounds (`accuracyClass`) in the reader's units.
        let units = report.format.units
        svg +=
            "<div class=\"legend\"><span class=\"k acc0\"></span>accuracy ≤ \(units.distance(5)) <span class=\"k acc1\"></span>≤ \(units.distance(15)) "
        svg +=
            "<span class=\"k acc2\"></span>≤ \(units.distance(50)) <span class=\"k acc3\"></span>worse; breaks in the line are gaps (no usable fix for more than \(Int(report.gapSeconds)) s) or jumps no vehicle makes</div>\n"
        svg +=
            "<div id=\"details\" role=\"status\" aria-live=\"polite\">Hover over, tap or tab to an event marker for its details.</div>\n</section>\n"
        return svg
    }

    /// Where a fence's label goes: centred above the fence's top (`x`, `y`), moved in so that the
    /// whole text is on the map (13 px type: about 7.5 px a character), below the top when there
    /// is no room above it.
    static func labelPlace(x: Double, y: Double, characters: Int, height: Double) -> (x: Double, y: Double) {
        let half = min(Double(characters) * 3.75, width / 2 - 2)
        let inX = min(max(x, half + 2), width - half - 2)
        let above = y - 4
        let inY = above < 13 ? min(y + 16, height - 3) : min(above, height - 3)
        return (inX, inY)
    }

    static func accuracyClass(_ accuracy: Double?) -> Int {
        guard let accuracy else { return 1 }
        if accuracy <= 5 { return 0 }
        if accuracy <= 15 { return 1 }
        if accuracy <= 50 { return 2 }
        return 3
    }

    /// A stretch as polylines, one per run of the same accuracy class (each run ends on the next
    /// run's first point, so the line stays joined), simplified to what the drawing can show.
    static func trackPolylines(_ stretch: ArraySlice<TrackPoint>, _ map: MapProjection) -> String {
        var out = ""
        var start = stretch.startIndex
        while start < stretch.endIndex {
            let cls = accuracyClass(stretch[start].accuracy)
            var end = start + 1
            while end < stretch.endIndex, accuracyClass(stretch[end].accuracy) == cls { end += 1 }
            let last = min(end, stretch.endIndex - 1)
            var xs: [Double] = []
            var ys: [Double] = []
            xs.reserveCapacity(last - start + 1)
            ys.reserveCapacity(last - start + 1)
            for index in start...last {
                let (x, y) = map.point(lat: stretch[index].lat, lon: stretch[index].lon)
                xs.append(x)
                ys.append(y)
            }
            let kept = TrackSimplifier.keep(xs, ys, tolerance: tolerance)
            if kept.count == 1 {
                out += "<circle class=\"acc\(cls) dot\" cx=\"\(fmt(xs[0]))\" cy=\"\(fmt(ys[0]))\" r=\"1.5\"/>\n"
            } else {
                out += "<polyline class=\"acc\(cls)\" points=\""
                for index in kept { out += fmt(xs[index]) + "," + fmt(ys[index]) + " " }
                out += "\"/>\n"
            }
            start = end
        }
        return out
    }

    static func scaleBar(_ map: MapProjection, units: MeasurementUnits) -> String {
        // A round length near a fifth of the map's width, in the reader's small or large unit.
        let (small, large, perLarge, smallName, largeName): (Double, Double, Double, String, String) =
            switch units {
            case .metric: (1, 1000, 1000, "m", "km")
            case .imperial: (0.3048, 1609.344, 5280, "ft", "mi")
            case .nautical: (1, 1852, 1852, "m", "nm")
            }
        let targetMetres = width / 5 / map.scale
        let inLarge = targetMetres >= large
        let target = targetMetres / (inLarge ? large : small)
        let magnitude = pow(10, floor(log10(max(target, 1e-3))))
        let length = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let pixels = length * (inLarge ? large : small) * map.scale
        let y = map.height - 20
        let label =
            inLarge || length >= perLarge
            ? "\(fmt(inLarge ? length : length / perLarge)) \(largeName)"
            : "\(fmt(length)) \(smallName)"
        return "<g class=\"scale\"><path d=\"M20 \(fmt(y - 6))V\(fmt(y))H\(fmt(20 + pixels))V\(fmt(y - 6))\"/>"
            + "<text x=\"20\" y=\"\(fmt(y - 10))\">\(label)</text></g>\n"
    }

    // MARK: - Timeline

    static func timelineSection(_ report: FieldReport) -> String {
        var out = "<section id=\"timeline-section\"><h2>Timeline</h2>\n"
        guard let first = report.points.first?.time ?? report.events.first?.time else {
            return out + "<p>No fixes.</p></section>\n"
        }
        let last = max(report.points.last?.time ?? first, report.events.map(\.time).max() ?? first)
        let span = Double(max(last - first, 1))
        let left = 60.0
        let right = width - 10
        let panel = 70.0
        let gap = 26.0
        let (speedFactor, speedUnit) = report.format.units.speedValue(1)
        func x(_ time: Int64) -> Double { left + (right - left) * Double(time - first) / span }
        let height = 3 * (panel + gap) + 24
        out +=
            "<div class=\"scroll\"><svg id=\"timeline\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Speed, accuracy and satellites over time\">\n"
        // Buckets: one per two SVG units, so the drawing has a bounded size whatever the input.
        let buckets = Int((right - left) / 2)
        var sums = [(speed: Double, speedN: Int, accuracy: Double, accuracyN: Int, sats: Double, satsN: Int)](
            repeating: (0, 0, 0, 0, 0, 0), count: buckets)
        for point in report.points {
            let bucket = min(buckets - 1, Int(Double(point.time - first) / span * Double(buckets)))
            if let speed = point.speed {
                sums[bucket].speed += speed
                sums[bucket].speedN += 1
            }
            if let accuracy = point.accuracy {
                sums[bucket].accuracy = max(sums[bucket].accuracy, accuracy)
                sums[bucket].accuracyN += 1
            }
            if let sats = point.satellites {
                sums[bucket].sats += Double(sats)
                sums[bucket].satsN += 1
            }
        }
        let series: [(String, String, (Int) -> Double?)] = [
            (
                "speed", speedUnit,
                { sums[$0].speedN > 0 ? sums[$0].speed / Double(sums[$0].speedN) * speedFactor : nil }
            ),
            ("accuracy", "m (worst)", { sums[$0].accuracyN > 0 ? sums[$0].accuracy : nil }),
            ("satellites", "used", { sums[$0].satsN > 0 ? sums[$0].sats / Double(sums[$0].satsN) : nil }),
        ]
        for (row, (name, unit, value)) in series.enumerated() {
            let top = 8 + Double(row) * (panel + gap)
            let values = (0..<buckets).map(value)
            let peak = values.compactMap { $0 }.max() ?? 1
            let maximum = max(peak * 1.1, 1e-9)
            out += "<g class=\"panel \(name)\"><text class=\"axis\" x=\"4\" y=\"\(fmt(top + 10))\">\(name)</text>"
            out += "<text class=\"axis\" x=\"4\" y=\"\(fmt(top + 24))\">\(fmt(peak)) \(unit)</text>"
            out +=
                "<line class=\"base\" x1=\"\(fmt(left))\" y1=\"\(fmt(top + panel))\" x2=\"\(fmt(right))\" y2=\"\(fmt(top + panel))\"/>"
            // Empty buckets between fixes are joined over; a pause longer than a gap breaks the line.
            let bucketSeconds = span / 1000 / Double(buckets)
            var d = ""
            var previous: Int?
            for (bucket, v) in values.enumerated() {
                guard let v else { continue }
                let px = left + (right - left) * (Double(bucket) + 0.5) / Double(buckets)
                let joined = previous.map { Double(bucket - $0 - 1) * bucketSeconds <= report.gapSeconds } ?? false
                d += (joined ? "L" : "M") + fmt(px) + " " + fmt(top + panel - panel * v / maximum)
                previous = bucket
            }
            out += "<path class=\"series\" d=\"\(d)\"/></g>\n"
        }
        out += "<g class=\"ticks\">"
        for event in report.events {
            let px = fmt(x(event.time))
            out +=
                "<line class=\"tick \(event.kind.reportClass)\" data-tick-for=\"\(escape(event.id))\" x1=\"\(px)\" y1=\"4\" x2=\"\(px)\" y2=\"\(fmt(height - 20))\"><title>\(escape(event.type)) \(report.format.time(event.time))</title></line>"
        }
        out += "</g>\n"
        out +=
            "<text class=\"axis\" x=\"\(fmt(left))\" y=\"\(fmt(height - 4))\">\(report.format.time(first))</text>"
        out +=
            "<text class=\"axis end\" x=\"\(fmt(right))\" y=\"\(fmt(height - 4))\">\(report.format.time(last))</text>\n"
        return out + "</svg></div>\n</section>\n"
    }

    // MARK: - Tables

    static func eventTable(_ report: FieldReport) -> String {
        var out =
            "<section id=\"events-section\"><h2>Events (\(report.events.count))</h2><div class=\"scroll\"><table id=\"events\">\n"
        out +=
            "<thead><tr><th>time (\(escape(report.format.calendar.name)))</th><th>type</th><th>fence</th><th>details</th></tr></thead><tbody>\n"
        for event in report.events {
            out +=
                "<tr data-row-for=\"\(escape(event.id))\" tabindex=\"0\"><td>\(report.format.time(event.time))</td>"
            out += "<td><span class=\"chip \(event.kind.reportClass)\"></span>\(escape(event.type))</td>"
            out +=
                "<td>\(escape(event.fenceName.map { "\($0) [\(event.fenceID)]" } ?? event.fenceID))</td><td>\(escape(details(event, in: report)))</td></tr>\n"
        }
        return out + "</tbody></table></div></section>\n"
    }

    /// The details of `event` as `report` shows them: in its units, with the fence's clearance
    /// and the vehicle's height (`--vehicle-height`) beside an approach or enter of a fence that
    /// has a clearance.
    static func details(_ event: ReportEvent, in report: FieldReport) -> String {
        let clearance = event.fence.flatMap { report.fences.settings($0).rules?.clearance }
        var text = details(event, units: report.format.units)
        guard let clearance, event.kind == .approach || event.kind == .enter else { return text }
        let units = report.format.units
        text += " · clearance " + units.height(clearance, rounded: .down)
        if let vehicle = report.vehicleHeight { text += " · vehicle " + units.height(vehicle, rounded: .up) }
        return text
    }

    static func details(_ event: ReportEvent, units: MeasurementUnits = .metric) -> String {
        let happening = event.record.event
        var parts: [String] = []
        if let location = happening.location {
            parts.append(
                ReportExports.coordinate(location.latitude) + ", " + ReportExports.coordinate(location.longitude))
            if let accuracy = location.accuracy { parts.append("±" + units.distance(accuracy)) }
            // A speeding's own speed is said against its limit below.
            if let speed = location.speed, happening.kind != .speeding { parts.append(units.speed(speed)) }
        }
        let flags = happening.restrictions.map { $0.definition.shout + " for the vehicle" }
        let expired = "the fence expired"
        switch happening.payload {
        case .approach(let approach):
            parts.append(units.distanceAhead(approach.distance) + " ahead")
            parts.append("eta \(duration(approach.eta))")
            parts += flags
        case .dwell(let dwell): parts.append("stayed \(duration(dwell.duration))")
        case .visit(let visit): parts.append("stayed \(duration(visit.duration))")
        case .speeding(let speeding): parts.append(units.speeding(speeding.speed, limit: speeding.limit))
        case .enter(let enter):
            parts += flags
            if enter.reason == .expired { parts.append(expired) }
        case .exit(let exit):
            if exit.reason == .expired { parts.append(expired) }
        case .deviceLost(let message, _), .deviceConnected(let message, _):
            parts.append(message)
        case .error(let problem, _):
            parts.append(problem.text)
        case .registered(_, let message): if let message { parts.append(message) }
        case .integrity(let integrity):
            parts.append(integrity.state.sentence)
            if !integrity.reasons.isEmpty { parts.append(integrity.reasons.words) }
        case .cross, .fixLost, .fixAcquired, .heartbeat, .unregistered, .stationary, .moving,
            .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
            break
        }
        return parts.joined(separator: " · ")
    }

    /// Per fence with any event: enters, exits, visits, crossings, approaches, speeding and the time
    /// inside (enter to exit, or to the last fix for a stay still open).
    static func fenceSummary(_ report: FieldReport) -> String {
        struct Summary {
            var counts: [GeofenceEvent.Kind: Int] = [:]
            var inside = 0.0
            var since: Int64?
        }
        var summaries: [Int: Summary] = [:]
        for event in report.events {
            guard let fence = event.fence else { continue }
            var summary = summaries[fence] ?? Summary()
            summary.counts[event.kind, default: 0] += 1
            switch event.kind {
            case .enter: summary.since = event.time
            case .exit:
                if let since = summary.since {
                    summary.inside += Double(event.time - since) / 1000
                    summary.since = nil
                }
            case .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost, .deviceConnected,
                .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm,
                .alarmAcknowledged, .alarmCleared, .integrity:
                break
            }
            summaries[fence] = summary
        }
        let end = report.points.last?.time ?? report.events.last?.time ?? 0
        var out = "<section id=\"fences-section\"><h2>Fences</h2><div class=\"scroll\"><table id=\"fences\">\n"
        let columns = GeofenceEvent.Kind.allCases.filter(\.hasFenceSummaryColumn)
        let kindHeads = columns.map { "<th>\($0.rawValue)</th>" }.joined()
        out += "<thead><tr><th>fence</th><th>visits</th><th>time inside</th>\(kindHeads)</tr></thead><tbody>\n"
        for fence in summaries.keys.sorted() {
            var summary = summaries[fence]!
            if let since = summary.since { summary.inside += Double(max(0, end - since)) / 1000 }
            let info = report.fences.info(fence)
            out +=
                "<tr data-fence=\"\(escape(info.id.text))\"><td>\(escape(info.name ?? "")) [\(escape(info.id.text))]</td>"
            out +=
                "<td>\(summary.counts[.visit] ?? 0)</td><td>\(duration(summary.inside))\(summary.since != nil ? " (still inside)" : "")</td>"
            for kind in columns {
                out += "<td>\(summary.counts[kind] ?? 0)</td>"
            }
            out += "</tr>\n"
        }
        let quiet = report.fences.count - summaries.count
        out += "</tbody></table></div><p>\(quiet) of \(report.fences.count) fences had no event.</p></section>\n"
        return out
    }

    static func receiverSection(_ report: FieldReport) -> String {
        let stats = report.statistics
        var rows: [(String, String)] = []
        if let device = stats.device { rows.append(("device", device)) }
        rows.append(("sentences", stats.sentences.map(String.init) ?? "not kept in a state file"))
        rows.append(("bad checksums", stats.badChecksums.map(String.init) ?? "not kept in a state file"))
        if let cycles = stats.cycles {
            rows.append(("receiver cycles", String(cycles)))
            let rate = cycles > 0 ? Double(stats.usableFixes) / Double(cycles) * 100 : 0
            rows.append(
                ("fix rate", String(format: "%.1f %% (%d usable fixes of %d cycles)", rate, stats.usableFixes, cycles)))
        }
        rows.append(("fixes", "\(stats.fixes) processed, \(stats.usableFixes) usable"))
        let gaps = report.gaps
        let total = gaps.reduce(0.0) { $0 + Double($1.to - $1.from) / 1000 }
        let longest = gaps.map { Double($0.to - $0.from) / 1000 }.max() ?? 0
        rows.append(
            ("gaps", gaps.isEmpty ? "none" : "\(gaps.count), \(duration(total)) in all, longest \(duration(longest))"))
        for gap in gaps.prefix(20) {
            rows.append(
                ("gap", "\(report.format.time(gap.from)) to \(report.format.time(gap.to))"))
        }
        var out = "<section id=\"receiver-section\"><h2>Receiver</h2><dl class=\"stats\">\n"
        for (key, value) in rows { out += "<dt>\(escape(key))</dt><dd>\(escape(value))</dd>\n" }
        return out + "</dl></section>\n"
    }

    // MARK: - Data for the script

    /// The events for the script, as JSON inside a script element: `<` and `/` are escaped so
    /// that no text in an event (a fence name, a URL in its properties) can close the element or
    /// read as a URL to fetch.
    static func eventData(_ report: FieldReport) -> String {
        // Keyed by event id, each id once (the last event with it wins), in id order.
        var byID: [String: ReportEvent] = [:]
        for event in report.events { byID[event.id] = event }
        let out = JSONBuffer(capacity: 256 * byID.count + 2)
        out.beginObject()
        for id in byID.keys.sorted() {
            let event = byID[id]!
            out.key(id)
            out.beginObject()
            out.key("fence")
            out.value(event.fenceName.map { "\($0) [\(event.fenceID)]" } ?? event.fenceID)
            out.key("json")
            out.value(shortened(event.json))
            out.key("time")
            out.value(UTCTime(millisecondsSinceEpoch: event.time).description)
            out.key("type")
            out.value(event.type)
            out.endObject()
        }
        out.endObject()
        // `/` and `<` occur only inside strings here, where `\/` and `\u003c` mean the same.
        return out.string.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "<", with: "\\u003c")
    }

    // MARK: - Helpers

    /// An event's JSON for the details panel, cut at 4000 characters: a `registered` of a
    /// million fences lists every id, and the page must stay small.
    static func shortened(_ json: String) -> String {
        guard json.count > 4000 else { return json }
        return String(json.prefix(4000)) + " … (\(json.count - 4000) more characters: `replay --json` prints it whole)"
    }

    /// The distance driven, by the odometer's rule (jitter below the accuracy does not count;
    /// the way of a jump is not driven).
    static func pathLength(_ report: FieldReport) -> Double {
        var odometer = Odometer()
        var previous: TrackPoint?
        for point in report.points {
            if let previous, report.isJump(previous, point) {
                odometer.restart(at: point)
            } else {
                _ = odometer.add(point)
            }
            previous = point
        }
        return odometer.metres
    }

    static func fmt(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }

    static func duration(_ seconds: Double) -> String { HumanText.duration(seconds) }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    struct Page {
        var text = ""
        mutating func add(_ part: String) { text += part }
    }
}

/// The map's local projection: metres east and north of the centre (equirectangular, good over
/// the tens of kilometres of a drive), scaled to the drawing, north up.
struct MapProjection {
    let plane: LocalPlane
    let scale: Double
    let height: Double
    let minX: Double, maxY: Double
    let margin = 30.0
    /// Lat/lon box of the view, for skipping far fences.
    let box: (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)

    init(_ report: FieldReport) {
        var lats = report.points.map(\.lat)
        var lons = report.points.map(\.lon)
        for event in report.events {
            if let lat = event.lat, let lon = event.lon {
                lats.append(lat)
                lons.append(lon)
            }
        }
        if lats.isEmpty {
            for fence in 0..<report.fences.count {
                for ring in report.fences.outline(fence) {
                    for p in ring {
                        lats.append(p.lat)
                        lons.append(p.lon)
                    }
                }
            }
        } else {
            // Fences with events are drawn whole.
            for fence in Set(report.events.compactMap(\.fence)) {
                for ring in report.fences.outline(fence) {
                    for p in ring {
                        lats.append(p.lat)
                        lons.append(p.lon)
                    }
                }
            }
        }
        if lats.isEmpty {
            lats = [0]
            lons = [0]
        }
        let lat0 = (lats.min()! + lats.max()!) / 2
        // The centre longitude from the first point, unwrapped, so a drive across the antimeridian stays whole.
        let reference = lons[0]
        let unwrapped = lons.map { lon -> Double in
            var d = lon - reference
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            return reference + d
        }
        let lon0 = (unwrapped.min()! + unwrapped.max()!) / 2
        plane = LocalPlane(lat0: lat0, lon0: lon0)
        var xs: [Double] = []
        var ys: [Double] = []
        for (lat, lon) in zip(lats, lons) {
            let p = plane.project(lat: lat, lon: lon)
            xs.append(p.x)
            ys.append(p.y)
        }
        let spanX = max(xs.max()! - xs.min()!, 50)
        let spanY = max(ys.max()! - ys.min()!, 50)
        let usable = ReportHTML.width - 2 * margin
        let aspect = min(max(spanY / spanX, 0.4), 1.2)
        height = (usable * aspect + 2 * margin).rounded()
        scale = min(usable / spanX, (height - 2 * margin) / spanY)
        minX = (xs.min()! + xs.max()!) / 2 - usable / 2 / scale
        maxY = (ys.min()! + ys.max()!) / 2 + (height - 2 * margin) / 2 / scale
        let padLat = (height / scale) / Geodesy.metresPerDegree
        let padLon = padLat / max(cos(lat0 * Geodesy.degree), 0.01) * 2
        box = (lat0 - padLat, lat0 + padLat, lon0 - padLon, lon0 + padLon)
    }

    func point(lat: Double, lon: Double) -> (x: Double, y: Double) {
        let p = plane.project(lat: lat, lon: lon)
        return (margin + (p.x - minX) * scale, margin + (maxY - p.y) * scale)
    }

    /// Whether a fence is near enough to the view to draw: its centre within the padded view box.
    /// (Cheap: a fence file may hold a million fences.) Fences with events are drawn anyway.
    func shows(fence: Int, _ fences: FenceSet) -> Bool {
        let p = fences.anchorPoint(fence)
        var dl = p.lon - plane.lon0
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        return p.lat >= box.minLat && p.lat <= box.maxLat && abs(dl) <= (box.maxLon - box.minLon) / 2
    }

    /// Where an event's marker goes: its location, else the track point nearest in time (a
    /// `registered` has no location), else the middle of the map.
    func eventPoint(_ event: ReportEvent, _ report: FieldReport) -> (x: Double, y: Double) {
        if let lat = event.lat, let lon = event.lon { return point(lat: lat, lon: lon) }
        let points = report.points
        guard !points.isEmpty else { return (ReportHTML.width / 2, height / 2) }
        var low = 0
        var high = points.count - 1
        while low < high {
            let mid = (low + high) / 2
            if points[mid].time < event.time { low = mid + 1 } else { high = mid }
        }
        return point(lat: points[low].lat, lon: points[low].lon)
    }
}
