/// OSM XML (`.osm`), streamed: `<node>`, `<way>` and `<relation>` with their `<tag>`, `<nd>` and
/// `<member>` children; everything else is passed over.
final class OSMXMLReader: OSMReader {
    let path: String
    private let xml: XMLReader
    private let element = OSMElement()
    private var passes = 0

    init(path: String) throws(ImportError) {
        self.path = path
        xml = XMLReader(source: try ByteSource(path: path))
    }

    func read(_ kinds: OSMKinds, keys: OSMTagKeys, visit: (OSMElement) throws -> Void) throws {
        if passes > 0 { xml.rewind() }
        passes += 1
        guard try xml.next() == .start, xml.nameIs("osm") else {
            throw ImportError(file: path, place: xml.tokenPlace, problem: .wrongRoot(.osm))
        }
        while true {
            switch try xml.next() {
            case .endOfFile: return
            case .text, .end: continue
            case .start: break
            }
            let kind: OSMElement.Kind
            let wanted: OSMKinds
            if xml.nameIs("node") {
                (kind, wanted) = (.node, .nodes)
            } else if xml.nameIs("way") {
                (kind, wanted) = (.way, .ways)
            } else if xml.nameIs("relation") {
                (kind, wanted) = (.relation, .relations)
            } else {
                try xml.skipElement()
                continue
            }
            if kinds == .nodes && kind != .node { return }
            guard kinds.contains(wanted) else {
                try xml.skipElement()
                continue
            }
            // A pass that looks at tags has nothing to learn from a node without any.
            if kind == .node, xml.selfClosing, !keys.keys.isEmpty { continue }
            try readElement(kind, keys: keys)
            try visit(element)
        }
    }

    func readLocations(_ note: (_ id: Int64, _ lat7: Int64, _ lon7: Int64) -> Void) throws {
        try read(.nodes, keys: OSMTagKeys()) { note($0.id, $0.lat7, $0.lon7) }
    }

    private func readElement(_ kind: OSMElement.Kind, keys: OSMTagKeys) throws(ImportError) {
        element.reset(kind)
        guard let idSpan = xml.attribute("id"), let id = xml.integer(idSpan) else {
            throw ImportError(
                file: path, place: xml.tokenPlace, problem: .elementWithoutID(element: xml.string(xml.name)))
        }
        element.id = id
        if kind == .node {
            guard let latSpan = xml.attribute("lat"), let lat = xml.degrees7(latSpan),
                let lonSpan = xml.attribute("lon"), let lon = xml.degrees7(lonSpan),
                abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000
            else {
                throw ImportError(file: path, place: xml.tokenPlace, problem: .nodeWithoutPosition(id: id))
            }
            element.lat7 = lat
            element.lon7 = lon
        }
        if xml.selfClosing { return }
        let level = xml.depth
        while true {
            switch try xml.next() {
            case .endOfFile: return
            case .end:
                if xml.depth < level { return }
            case .text: continue
            case .start:
                if xml.nameIs("tag") {
                    if !keys.keys.isEmpty, let key = xml.attribute("k"),
                        let index = keys.index(
                            of: UnsafeRawBufferPointer(start: xml.buffer + key.start, count: key.end - key.start)),
                        let value = xml.attribute("v")
                    {
                        element.tags.append((index, xml.string(value)))
                    }
                } else if xml.nameIs("nd") {
                    guard let ref = xml.attribute("ref").flatMap(xml.integer) else {
                        throw ImportError(file: path, place: xml.tokenPlace, problem: .wayNodeWithoutRef)
                    }
                    element.refs.append(ref)
                } else if xml.nameIs("member") {
                    guard let ref = xml.attribute("ref").flatMap(xml.integer), let type = xml.attribute("type") else {
                        throw ImportError(file: path, place: xml.tokenPlace, problem: .memberWithoutTypeAndRef)
                    }
                    let role = xml.attribute("role").map(xml.string) ?? ""
                    element.members.append(.init(isWay: xml.equals(type, "way"), ref: ref, role: role))
                }
                try xml.skipElement()
            }
        }
    }
}
