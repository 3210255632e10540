import ArgumentParser

/// "Did you mean" for a command line that did not parse (docs/running.md, "Exit statuses"): a
/// subcommand or an option that is not there but is one or two letters away from one that is.
/// Looked for before the parser's own message, which for `replay --fence x` would only say that
/// `--fences` is missing.
enum Suggestions {
    /// The hint for `arguments` (without the program's name), or nil when every word is known or
    /// nothing known is near the unknown one.
    static func hint(for arguments: [String]) -> String? {
        var command: ParsableCommand.Type = GPSFence.self
        var path = ["gpsfence"]
        var index = 0
        // The subcommands, as far as the words name them.
        while index < arguments.count, !arguments[index].hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { break }
            let word = arguments[index]
            guard let next = subcommands.first(where: { name(of: $0) == word }) else {
                let names = subcommands.map(name(of:))
                guard let near = nearest(word, among: names) else { return nil }
                return "unknown command '\(word)' for '\(path.joined(separator: " "))'; did you mean '\(near)'?"
            }
            command = next
            path.append(word)
            index += 1
        }
        let known = optionNames(of: command)
        for argument in arguments[index...] {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let option = String(argument.prefix { $0 != "=" })
            if known.contains(option) { continue }
            guard let near = nearest(option, among: known) else { continue }
            return "unknown option '\(option)' for '\(path.joined(separator: " "))'; did you mean '\(near)'?"
        }
        return nil
    }

    static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// The long options `command` takes, read from its help (hidden ones included).
    static func optionNames(of command: ParsableCommand.Type) -> [String] {
        let help = GPSFence.helpMessage(for: command, includeHidden: true, columns: 1000)
        var names: Set<String> = ["--help", "--version"]
        var word = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                word.append(character)
                continue
            }
            if word.hasPrefix("--"), word.count > 2 { names.insert(word) }
            word = ""
        }
        return names.sorted()
    }

    /// The name in `names` within a small edit distance of `word` (two edits, one for short
    /// words), or one that starts with it; the closest wins.
    static func nearest(_ word: String, among names: [String]) -> String? {
        let allowed = word.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(word, name)
            let fits = distance <= allowed || (name.hasPrefix(word) && word.count >= 3)
            if fits, distance < best?.distance ?? Int.max { best = (name, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
