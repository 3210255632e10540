/// `gpsfence fences import`: every source read in turn into one GeoJSON fence file, written to a
/// file descriptor the caller opened (and renames into place once this returns).
public struct FenceImporter {
    public var settings: ImportSettings

    public init(settings: ImportSettings) { self.settings = settings }

    /// Reads `sources` in order; returns what was kept and skipped. Throws `ImportError` for a
    /// source that cannot be read, `WriteFailure` when the output cannot be written.
    public func run(sources: [String], descriptor: Int32, outputName: String) throws -> ImportSummary {
        let writer = try FenceWriter(
            descriptor: descriptor, outputName: outputName, boundingBox: settings.boundingBox,
            checkDuplicates: sources.count > 1)
        for path in sources {
            let offeredBefore = writer.offered
            let format = try SourceFormat.of(path)
            switch format {
            case .osmXML:
                try requireOSMSelection(path)
                try OSMImport(reader: try OSMXMLReader(path: path), settings: settings, writer: writer).run()
            case .gpx:
                try GPXImport(path: path, settings: settings, writer: writer).run()
            case .kml:
                try KMLImport(path: path, settings: settings, writer: writer).run()
            case .osmPBF:
                try requireOSMSelection(path)
                try OSMImport(reader: try OSMPBFReader(path: path), settings: settings, writer: writer).run()
            case .kmz:
                let archive = try ByteSource(path: path)
                let (name, bytes) = try ZipEntry.kml(in: archive)
                let source = ByteSource(bytes: bytes, path: path, entry: name)
                try KMLImport(path: path, settings: settings, writer: writer).run(XMLReader(source: source))
            }
            if writer.offered == offeredBefore, format.isDrawn {
                throw ImportError(file: path, problem: Self.nothingIn(format, summary: writer.summary))
            }
        }
        if let box = settings.boundingBox, writer.summary.keptCount == 0, writer.summary.insideOsmiumOrderBox > 0,
            let other = box.inOsmiumOrder
        {
            throw ImportError(
                file: sources.joined(separator: ", "),
                problem: "--bbox \(box.text) (south,west,north,east) keeps no fence, while the same numbers "
                    + "read as west,south,east,north (osmium's order) would keep \(writer.summary.insideOsmiumOrderBox): "
                    + "write --bbox \(other.text)")
        }
        try writer.finish()
        return writer.summary
    }

    /// Why a KML or GPX gave no fence: what it should hold, and what was skipped.
    static func nothingIn(_ format: SourceFormat, summary: ImportSummary) -> String {
        let wanted =
            format == .gpx
            ? "no waypoint (wpt), route (rte) or track (trk) became a fence"
            : "no Placemark with a Point, LineString or Polygon became a fence"
        let skipped = summary.skipped.keys.sorted()
        return wanted + (skipped.isEmpty ? "" : " (skipped: " + skipped.joined(separator: "; ") + ")")
            + "; nothing was written"
    }

    private func requireOSMSelection(_ path: String) throws(ImportError) {
        guard settings.selectsOSM else {
            throw ImportError(
                file: path,
                problem: "an OpenStreetMap file needs --clearances, --speed-limits, --truck-restrictions or "
                    + "--select KEY[=VALUE] to say which of its elements become fences")
        }
    }
}
