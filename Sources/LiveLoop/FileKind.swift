import Platform

/// What a file holds (Platform's one sniffer) told to a user who gave it to the wrong place: a
/// GPX track to `replay`, a capture to `run --device` or a KML file to `--fences` is told what the
/// file is and what to do with it (docs/formats.md), instead of silence or a parser's complaint.
extension FileKind {
    /// Bad input when `name`, of this kind, cannot be an NMEA capture; nil when it may be one.
    package func captureProblem(_ name: String) -> InputError? { problem(name, givenAs: .capture) }

    /// Bad input when `name`, of this kind, cannot be a fence file (GeoJSON or CSV).
    func fenceProblem(_ name: String) -> InputError? { problem(name, givenAs: .fences) }

    /// Bad input when `name`, of this kind, cannot be a route for `simulate`; nil when it may be one.
    package func routeProblem(_ name: String) -> InputError? { problem(name, givenAs: .route) }

    private func problem(_ name: String, givenAs role: FileRole) -> InputError? {
        mismatch(name, givenAs: role) == nil ? nil : .wrongKind(path: name, kind: self, givenAs: role)
    }

    /// What `InputError.wrongKind` says.
    func words(_ name: String, givenAs role: FileRole) -> String {
        mismatch(name, givenAs: role) ?? "'\(name)' cannot be read here"
    }

    /// Why `name` cannot be read as `role` and what to do instead; nil when it may be one.
    private func mismatch(_ name: String, givenAs role: FileRole) -> String? {
        switch role {
        case .capture: captureMismatch(name)
        case .fences: fenceMismatch(name)
        case .route: routeMismatch(name)
        }
    }

    private func captureMismatch(_ name: String) -> String? {
        switch self {
        case .gpx:
            return "'\(name)' is a GPX track, not an NMEA capture: play it with 'gpsfence simulate \(name)' "
                + "(a simulated receiver to 'run' against), or convert it: "
                + "gpsbabel -i gpx -f \(name) -o nmea -F track.nmea"
        case .kml:
            return "'\(name)' is a KML file, not an NMEA capture: convert a track with "
                + "gpsbabel -i kml -f \(name) -o nmea -F track.nmea"
        case .json:
            return "'\(name)' is JSON (a GeoJSON fence file or route?), not an NMEA capture: fences go to "
                + "--fences; a LineString route plays with 'gpsfence simulate \(name)'"
        case .sqlite:
            return "'\(name)' is an SQLite database (a state file?), not an NMEA capture: "
                + "'gpsfence report --state \(name)' and 'gpsfence status --state \(name)' read state files"
        case .xml, .osmXML:
            return "'\(name)' is XML, not an NMEA capture (GPX tracks play with 'gpsfence simulate')"
        case .nmea, .empty, .other, .osmPBF, .zip:
            return nil
        }
    }

    private func fenceMismatch(_ name: String) -> String? {
        switch self {
        case .kml:
            return "\(name): this is KML (Google Earth, My Maps), not GeoJSON or CSV: make a fence file of it with "
                + "'gpsfence fences import \(name) --output fences.geojson' (points become circles of 10 m, or of "
                + "the radius in their ExtendedData; docs/fences.md, \"Importing fences\")"
        case .gpx:
            return "\(name): this is a GPX file, not GeoJSON or CSV: make a fence file of it with "
                + "'gpsfence fences import \(name) --output fences.geojson' (waypoints become circles, routes and "
                + "tracks corridors; docs/fences.md, \"Importing fences\"); a GPX track plays with 'gpsfence simulate'"
        case .nmea:
            return "\(name): this is an NMEA capture, not a fence file: play it with "
                + "'gpsfence replay \(name) --fences FENCES'"
        case .sqlite:
            return "\(name): this is an SQLite database (a state file?), not a fence file: give it to --state"
        case .xml, .osmXML:
            return "\(name): this is XML, not GeoJSON or CSV (docs/fences.md)"
        case .json, .empty, .other, .osmPBF, .zip:
            return nil
        }
    }

    private func routeMismatch(_ name: String) -> String? {
        switch self {
        case .kml:
            return "\(name): this is KML, not a route simulate plays (GPX track, GeoJSON LineString, NMEA "
                + "capture): convert it with 'gpsbabel -i kml -f \(name) -o gpx -F route.gpx'"
        case .sqlite:
            return "\(name): this is an SQLite database (a state file?), not a route: "
                + "'gpsfence report --state \(name) --gpx route.gpx' exports its track as GPX"
        case .gpx, .json, .nmea, .xml, .empty, .other, .osmXML, .osmPBF, .zip:
            return nil
        }
    }
}
