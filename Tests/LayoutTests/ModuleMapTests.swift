import Foundation
import Testing

/// The module map of docs/architecture.md, `Package.swift` and the `import` lines of each module's
/// files must tell the same story: a dependency declared but not imported, imported but not
/// declared, or either one missing from the page fails here.
@Suite struct ModuleMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Modules of the toolchain and the C library, which no target declares.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Darwin", "Dispatch", "Synchronization",
    ]

    @Test func thePageThePackageAndTheImportsAgree() throws {
        let package = try PackageTargets.read(Self.root.appendingPathComponent("Package.swift"))
        let page = try ModulePage.read(Self.root.appendingPathComponent("docs/architecture.md"))
        let modules = package.filter {
            !$0.isSystemLibrary && !$0.path.hasPrefix("Tests/") && !$0.path.hasPrefix("Benchmarks/")
        }
        #expect(modules.count >= 12)
        for module in modules {
            let imported = try Self.imports(under: Self.root.appendingPathComponent(module.path))
                .subtracting(Self.system).subtracting([module.name])
            #expect(
                imported == module.dependencies,
                "\(module.name): imported \(imported.sorted()), declared \(module.dependencies.sorted())")
            #expect(
                page[module.name] == module.dependencies,
                "\(module.name): the page says \(page[module.name]?.sorted() ?? []), Package.swift \(module.dependencies.sorted())"
            )
        }
        #expect(Set(page.keys) == Set(modules.map(\.name)), "the page's modules and Package.swift's differ")
    }

    /// Every arrow points down: no module depends, directly or not, on itself.
    @Test func theArrowsHaveNoCycle() throws {
        let package = try PackageTargets.read(Self.root.appendingPathComponent("Package.swift"))
        let edges = Dictionary(uniqueKeysWithValues: package.map { ($0.name, $0.dependencies) })
        for start in edges.keys {
            var seen: Set<String> = []
            var stack = Array(edges[start] ?? [])
            while let next = stack.popLast() {
                #expect(next != start, "\(start) reaches itself")
                if next == start || !seen.insert(next).inserted { continue }
                stack += edges[next] ?? []
            }
        }
    }

    /// The module names every `import` line under `folder` names (`import class X.Y` counts as X).
    static func imports(under folder: URL) throws -> Set<String> {
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                if words.first == "@testable" { words.removeFirst() }
                guard words.first == "import", words.count >= 2 else { continue }
                let kinds: Set<String> = ["class", "struct", "enum", "func", "protocol", "typealias", "var", "let"]
                let name = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
                found.insert(String(name.split(separator: ".")[0]))
            }
        }
        return found
    }
}

/// A target of `Package.swift` as its text declares it: enough of the manifest's grammar for the
/// shapes swift-format leaves it in.
struct PackageTargets {
    var name: String
    var path: String
    var dependencies: Set<String>
    var isSystemLibrary: Bool

    static func read(_ url: URL) throws -> [PackageTargets] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var targets: [PackageTargets] = []
        for opener in [".target(", ".executableTarget(", ".systemLibrary("] {
            var rest = text[...]
            while let start = rest.range(of: opener) {
                let body = balanced(rest[start.upperBound...])
                rest = rest[start.upperBound...]
                guard let name = firstQuoted(after: "name:", in: body) else { continue }
                let path = firstQuoted(after: "path:", in: body) ?? "Sources/\(name)"
                var dependencies: Set<String> = []
                if let list = body.range(of: "dependencies: [") {
                    let inner = balanced(body[list.upperBound...], open: "[", close: "]")
                    dependencies = names(inDependencies: inner)
                }
                targets.append(
                    PackageTargets(
                        name: name, path: path, dependencies: dependencies, isSystemLibrary: opener == ".systemLibrary("
                    ))
            }
        }
        return targets
    }

    /// The text up to the bracket that closes the one already opened before `text`.
    static func balanced(_ text: Substring, open: Character = "(", close: Character = ")") -> Substring {
        var depth = 1
        for index in text.indices {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
        }
        return text
    }

    static func firstQuoted(after label: String, in text: Substring) -> String? {
        guard let at = text.range(of: label) else { return nil }
        let after = text[at.upperBound...]
        guard let open = after.firstIndex(of: "\"") else { return nil }
        let value = after[after.index(after: open)...]
        guard let close = value.firstIndex(of: "\"") else { return nil }
        return String(value[..<close])
    }

    /// `"Target"` names and `.product(name: "Product", ...)` names.
    static func names(inDependencies list: Substring) -> Set<String> {
        var found: Set<String> = []
        var rest = list
        while let quote = rest.firstIndex(of: "\"") {
            let value = rest[rest.index(after: quote)...]
            guard let close = value.firstIndex(of: "\"") else { break }
            let word = String(value[..<close])
            let before = rest[..<quote]
            let isPackageName = before.hasSuffix("package: ")
            if !isPackageName { found.insert(word) }
            rest = value[value.index(after: close)...]
        }
        return found
    }
}

/// The table of docs/architecture.md: `| \`Module\` | \`A\`, \`B\` | ... |`, "nothing" for none.
enum ModulePage {
    static func read(_ url: URL) throws -> [String: Set<String>] {
        var rows: [String: Set<String>] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"), cells[1].count > 2 else {
                continue
            }
            let name = String(cells[1].dropFirst().dropLast())
            guard !name.contains(" "), !name.contains("/"), !name.contains(".") else { continue }
            let imports =
                cells[2] == "nothing"
                ? []
                : cells[2].split(separator: ",").map {
                    String(
                        $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")))
                }
            guard imports.allSatisfy({ !$0.isEmpty && !$0.contains(" ") && !$0.contains("/") && !$0.contains(".") })
            else { continue }
            rows[name] = Set(imports)
        }
        return rows
    }
}
