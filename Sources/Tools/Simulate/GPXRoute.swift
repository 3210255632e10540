import LiveLoop
import NMEA

/// Track points out of a GPX file: `<trkpt lat=".." lon="..">` (or `<rtept>`) with optional
/// `<ele>` and `<time>` children. A small scanner rather than an XML library: GPX track points are
/// flat, and FoundationXML would pull libxml2 into the binary for this one use.
enum GPXRoute {
    static func parse(_ text: String, file: String) throws(InputError) -> [RoutePoint] {
        var points: [RoutePoint] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<trkpt") ?? rest.range(of: "<rtept") {
            let tag = rest[open].dropFirst()
            let element = rest[open.upperBound...]
            guard let tagEnd = element.firstIndex(of: ">") else {
                throw InputError.route(path: file, at: .point(points.count + 1), .unclosedTag(tag: String(tag)))
            }
            let attributes = element[..<tagEnd]
            let selfClosing = attributes.hasSuffix("/")
            var body = Substring("")
            if selfClosing {
                rest = element[element.index(after: tagEnd)...]
            } else if let close = element.range(of: "</\(tag)>") {
                body = element[element.index(after: tagEnd)..<close.lowerBound]
                rest = element[close.upperBound...]
            } else {
                throw InputError.route(path: file, at: .point(points.count + 1), .noClosingTag(tag: String(tag)))
            }
            let place = FilePlace.point(points.count + 1)
            guard let latText = attribute("lat", in: attributes), let latitude = Double(latText),
                (-90...90).contains(latitude)
            else { throw InputError.route(path: file, at: place, .latitude) }
            guard let lonText = attribute("lon", in: attributes), let longitude = Double(lonText),
                (-180...180).contains(longitude)
            else { throw InputError.route(path: file, at: place, .longitude) }
            var point = RoutePoint(latitude: latitude, longitude: longitude)
            if let elevation = child("ele", in: body) {
                guard let value = Double(elevation) else {
                    throw InputError.route(path: file, at: place, .elevation(given: elevation))
                }
                point.altitude = value
            }
            if let time = child("time", in: body) {
                guard let value = parseISOTime(time) else {
                    throw InputError.route(path: file, at: place, .time(given: time))
                }
                point.time = value
            }
            points.append(point)
        }
        return points
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        for quote in ["\"", "'"] {
            if let start = tag.range(of: " \(name)=\(quote)") ?? tag.range(of: "\t\(name)=\(quote)")
                ?? tag.range(of: "\n\(name)=\(quote)"),
                let end = tag[start.upperBound...].firstIndex(of: Character(quote))
            {
                return String(tag[start.upperBound..<end]).trimmingSpaces
            }
        }
        return nil
    }

    static func child(_ name: String, in body: Substring) -> String? {
        guard let open = body.range(of: "<\(name)>"), let close = body[open.upperBound...].range(of: "</\(name)>")
        else { return nil }
        return String(body[open.upperBound..<close.lowerBound]).trimmingSpaces
    }
}

extension String {
    var trimmingSpaces: String {
        let characters = Substring(self).drop { $0.isWhitespace }
        return String(characters.reversed().drop { $0.isWhitespace }.reversed())
    }
}
