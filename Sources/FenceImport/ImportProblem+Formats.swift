/// How an XML document is broken.
public enum XMLProblem: Sendable, Equatable {
    /// The file ends while this element is open.
    case endsInsideElement(name: String)
    /// The file ends inside a tag.
    case endsInsideTag
    /// Text before or after the root element.
    case textOutsideRoot
    case lessThanInsideTag
    case tagWithoutName
    case attributeWithoutValue
    case attributeValueWithoutQuotes
    case unterminatedAttributeValue
    /// A closing tag (its name) with no element open.
    case closesNothing(name: String)
    /// A closing tag (its name) where the open element (`expected`) was to close.
    case mismatchedClose(name: String, expected: String)

    var text: String {
        switch self {
        case .endsInsideElement(let name): "the file ends inside <\(name)> (is it truncated?)"
        case .endsInsideTag: "the file ends inside a tag (is it truncated?)"
        case .textOutsideRoot: "text outside the root element"
        case .lessThanInsideTag: "'<' inside a tag"
        case .tagWithoutName: "a tag without a name"
        case .attributeWithoutValue: "an attribute without a value"
        case .attributeValueWithoutQuotes: "an attribute value without quotes"
        case .unterminatedAttributeValue: "an unterminated attribute value"
        case .closesNothing(let name): "</\(name)> closes nothing"
        case .mismatchedClose(let name, let expected): "</\(name)> where </\(expected)> was expected"
        }
    }
}

/// How an OSM PBF file is not one, or is broken.
public enum PBFProblem: Sendable, Equatable {
    /// A data blob before the header blob.
    case dataBeforeHeader
    /// No header blob at all.
    case noHeaderBlob
    /// A blob header length no PBF file has.
    case blobHeaderLength(bytes: Int)
    case blobHeaderUndecodable
    case blobUndecodable
    case blockUndecodable
    /// A blob's declared size out of bounds.
    case blobSize(bytes: Int)
    /// A blob's declared inflated size out of bounds.
    case inflatedSize(bytes: Int)
    /// A blob compressed otherwise than zlib or not at all (the method's field name, if known).
    case compression(method: String?)
    /// zlib could not inflate a blob.
    case inflate(InflateFailure)
    /// The header requires a feature that is not read (a history file's).
    case requiredFeature(name: String)

    var text: String {
        switch self {
        case .dataBeforeHeader: "not an OSM PBF file: data before the header"
        case .noHeaderBlob: "not an OSM PBF file: no header blob"
        case .blobHeaderLength(let length): "not an OSM PBF file (a blob header of \(length) bytes)"
        case .blobHeaderUndecodable: "not an OSM PBF file (its blob header cannot be decoded)"
        case .blobUndecodable: "broken PBF: the blob cannot be decoded"
        case .blockUndecodable: "broken PBF: the block cannot be decoded"
        case .blobSize(let size): "broken PBF: a blob of \(size) bytes"
        case .inflatedSize(let size): "broken PBF: a blob of \(size) bytes inflated"
        case .compression(let method):
            "a blob compressed with \(method ?? "nothing known"): only zlib and uncompressed blobs are read"
        case .inflate(let failure): "broken PBF: \(failure.text)"
        case .requiredFeature(let feature): "the file needs '\(feature)', which is not read (a history file?)"
        }
    }
}

/// How a KMZ is not a readable zip, or holds no readable KML.
public enum KMZProblem: Sendable, Equatable {
    case noEndOfDirectory
    /// The directory lies outside the file (a zip64 archive, or truncated).
    case directoryOutside
    case directoryDamaged
    case noKML
    /// The KML entry (its name) is larger than a KMZ's document can be.
    case entryTooLarge(entry: String)
    case entryHeaderDamaged(entry: String)
    case entryNotInflated(entry: String, InflateFailure)
    /// The KML entry is compressed with another method than stored or deflated.
    case entryMethod(entry: String, method: UInt16)

    var text: String {
        switch self {
        case .noEndOfDirectory: "no end of its directory (is it truncated?)"
        case .directoryOutside: "its directory is outside the file (a zip64 archive, or truncated)"
        case .directoryDamaged: "its directory is damaged"
        case .noKML: "no .kml inside"
        case .entryTooLarge(let name): "\(name) is larger than a KMZ's document can be"
        case .entryHeaderDamaged(let name): "\(name)'s header is damaged"
        case .entryNotInflated(let name, let failure): "\(name) cannot be inflated: \(failure.text)"
        case .entryMethod(let name, let method):
            "\(name) is compressed with method \(method) (only stored and deflated are read)"
        }
    }
}
