import Foundation
import Testing

/// Every type marked `@unchecked Sendable` states its threading contract in docs/architecture.md
/// ("Threading contracts of the unguarded types"), and that table names no type that is gone.
@Suite struct ThreadingContractTests {
    @Test func everyUncheckedSendableTypeHasAStatedContract() throws {
        let declared = try Self.uncheckedTypes(under: ModuleMapTests.root.appendingPathComponent("Sources"))
        let listed = try Self.listedTypes()
        #expect(declared.count > 30, "the scan found \(declared.count) types")
        let missing = declared.subtracting(listed).sorted()
        let stale = listed.subtracting(declared).sorted()
        #expect(missing.isEmpty, "no stated contract in docs/architecture.md: \(missing)")
        #expect(stale.isEmpty, "in the table but not marked @unchecked Sendable: \(stale)")
    }

    @Test func theScanFindsGenericAndNestedDeclarations() {
        let text = """
            public final class SPSCRing<Element>: @unchecked Sendable {
                private struct Shares: @unchecked Sendable {
            final class Plain: Sendable {
            /// A class kept `@unchecked Sendable` for a reason.
            package final class BrokerFences: FenceFeed, @unchecked Sendable {
            """
        #expect(Self.uncheckedTypes(in: text) == ["SPSCRing", "Shares", "BrokerFences"])
    }

    static func uncheckedTypes(in text: String) -> [String] {
        var names: [String] = []
        for line in text.split(separator: "\n") where line.contains("@unchecked Sendable") {
            if line.drop(while: { $0 == " " }).hasPrefix("//") { continue }
            let words = line.split(whereSeparator: { " \t:<".contains($0) })
            guard let keyword = words.firstIndex(where: { $0 == "class" || $0 == "struct" || $0 == "enum" }),
                keyword + 1 < words.count
            else { continue }
            names.append(String(words[keyword + 1]))
        }
        return names
    }

    static func uncheckedTypes(under sources: URL) throws -> Set<String> {
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            names.formUnion(uncheckedTypes(in: try String(contentsOf: file, encoding: .utf8)))
        }
        return names
    }

    /// The back-quoted names in the second column of the table's rows.
    static func listedTypes() throws -> Set<String> {
        let page = try String(
            contentsOf: ModuleMapTests.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let start = page.range(of: "## Threading contracts of the unguarded types") else { return [] }
        let section = page[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var names: Set<String> = []
        for row in section[..<end].split(separator: "\n") where row.hasPrefix("| ") && row.contains("`") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            for (index, piece) in cells[2].split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where index % 2 == 1 {
                names.insert(String(piece))
            }
        }
        return names
    }
}
