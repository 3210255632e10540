import Platform

/// What is wrong with a source `fences import` reads, by cause; `text` puts it into words.
public enum ImportProblem: Sendable, Equatable {
    /// The path is a folder.
    case isDirectory
    /// The file cannot be opened or read (the failed call; nil: no reason to give).
    case unreadable(FileCallError?)
    /// The file ends inside a part of it that must be whole.
    case endsInside(FilePart)
    /// The file ends before the bytes read at a place in it.
    case endsEarly
    /// The file ends where this part must begin.
    case endsBefore(FilePart)
    /// Neither its name nor its first bytes say it is a format `fences import` reads.
    case unknownFormat
    /// An OpenStreetMap file without an option that says which of its elements become fences.
    case noOSMSelection
    /// A drawn file of which nothing became a fence (`skipped`: why, for those skipped).
    case nothingBecameAFence(DrawnFormat, skipped: [String])
    /// `--bbox` keeps nothing, while its numbers in osmium's order (`osmiumOrder`) would keep `wouldKeep`.
    case boxInOtherOrder(BoundingBox, wouldKeep: Int, osmiumOrder: BoundingBox)
    /// The root element is not the one of the format the file is read as.
    case wrongRoot(RootElement)
    /// A GPX point element (`<wpt>`, `<rtept>`, `<trkpt>`) without a readable lat and lon.
    case pointWithoutPosition(element: String)
    /// A KML coordinate tuple that is not lon,lat[,altitude].
    case badCoordinates(tuple: String)
    /// An OSM XML element (`<node>`, `<way>`, `<relation>`) without an id.
    case elementWithoutID(element: String)
    /// An OSM XML node without a readable lat and lon.
    case nodeWithoutPosition(id: Int64)
    /// An OSM XML `<nd>` without a readable ref.
    case wayNodeWithoutRef
    /// An OSM XML `<member>` without a type and ref.
    case memberWithoutTypeAndRef
    /// The XML itself is broken.
    case xml(XMLProblem)
    /// An OSM PBF file that is not one, or is broken.
    case pbf(PBFProblem)
    /// A KMZ that is not a readable zip, or holds no readable KML.
    case kmz(KMZProblem)

    var text: String {
        switch self {
        case .isDirectory: "is a directory, not a file to import"
        case .unreadable(let failure): "cannot read the file" + (failure.map { ": " + $0.reason } ?? "")
        case .endsInside(let part): "the file ends inside \(part.text) (is it truncated?)"
        case .endsEarly: "the file ends early (is it truncated?)"
        case .endsBefore(let part): "the file ends before \(part.text) (is it truncated?)"
        case .unknownFormat:
            "not a file fences import reads: give an OpenStreetMap file (.osm.pbf, .osm), KML, KMZ or GPX"
        case .noOSMSelection:
            "an OpenStreetMap file needs --clearances, --speed-limits, --truck-restrictions or "
                + "--select KEY[=VALUE] to say which of its elements become fences"
        case .nothingBecameAFence(let format, let skipped):
            (format == .gpx
                ? "no waypoint (wpt), route (rte) or track (trk) became a fence"
                : "no Placemark with a Point, LineString or Polygon became a fence")
                + (skipped.isEmpty ? "" : " (skipped: " + skipped.joined(separator: "; ") + ")")
                + "; nothing was written"
        case .boxInOtherOrder(let box, let wouldKeep, let other):
            "--bbox \(box.text) (south,west,north,east) keeps no fence, while the same numbers "
                + "read as west,south,east,north (osmium's order) would keep \(wouldKeep): write --bbox \(other.text)"
        case .wrongRoot(let root): "not \(root.format) file (its root element is not <\(root.rawValue)>)"
        case .pointWithoutPosition(let element): "a <\(element)> without a readable lat and lon"
        case .badCoordinates(let tuple): "coordinates '\(tuple)' are not lon,lat[,altitude]"
        case .elementWithoutID(let element): "a <\(element)> without an id"
        case .nodeWithoutPosition(let id): "node \(id) has no readable lat and lon"
        case .wayNodeWithoutRef: "an <nd> without a readable ref"
        case .memberWithoutTypeAndRef: "a <member> without a type and ref"
        case .xml(let problem): "broken XML: " + problem.text
        case .pbf(let problem): problem.text
        case .kmz(let problem): "not a readable KMZ (zip) file: " + problem.text
        }
    }
}

/// A part of a file that must be whole.
public enum FilePart: Sendable, Equatable {
    /// A PBF blob's length, header or data.
    case blobLength, blobHeader, blobData

    var text: String {
        switch self {
        case .blobLength: "its length"
        case .blobHeader: "its header"
        case .blobData: "its data"
        }
    }
}

/// A file drawn by a person, in which every element is meant as a fence.
public enum DrawnFormat: Sendable, Equatable {
    case gpx
    /// KML, or the KML inside a KMZ.
    case kml
}

/// The root element each XML format read has.
public enum RootElement: String, Sendable, Equatable {
    case gpx, kml, osm

    /// The format's name, with its article.
    var format: String {
        switch self {
        case .gpx: "a GPX"
        case .kml: "a KML"
        case .osm: "an OSM XML"
        }
    }
}
