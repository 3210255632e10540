import Foundation
import Testing

/// Platform is the only module that calls the kernel (docs/architecture.md, "Who calls which
/// system call"): outside it and the C shim modules, no file imports Glibc nor calls one of the C
/// library's file, process, terminal or socket functions. The C library's pure functions (math,
/// `memchr`, `strtod`) come through Platform's re-exports.
@Suite struct SystemCallFloorTests {
    /// The C functions that reach the kernel or the process's environment.
    static let floorCalls: [String] = [
        "open", "openat", "read", "pread", "write", "pwrite", "close", "lseek", "mmap", "munmap", "madvise",
        "msync", "fsync", "fdatasync", "rename", "renameat", "unlink", "unlinkat", "mkdir", "rmdir", "symlink",
        "readlink", "stat", "fstat", "lstat", "access", "ftruncate", "fchmod", "fchown", "chmod", "fopen",
        "fclose", "fread", "fwrite", "getenv", "setenv", "unsetenv", "poll", "ppoll", "select", "ioctl",
        "tcsetattr", "tcgetattr", "cfsetispeed", "cfsetospeed", "socket", "setsockopt", "inotify_init",
        "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "kill", "flock", "fcntl", "dup", "dup2",
        "pipe", "pipe2", "getpid", "usleep", "nanosleep", "sleep", "sysconf", "opendir", "readdir", "realpath",
        "isatty", "strerror", "posix_spawn", "waitpid", "signal", "sigaction", "clock_gettime", "mkstemp",
        "fallocate", "posix_memalign", "mkdtemp", "gethostname", "fgets", "clock_nanosleep", "prctl",
    ]

    @Test func onlyPlatformCallsTheKernel() throws {
        let findings = try Self.findings(under: ModuleMapTests.root.appendingPathComponent("Sources"))
        #expect(findings.isEmpty, "outside Platform:\n\(findings.joined(separator: "\n"))")
    }

    /// The scanner finds what it is meant to find (so that an empty result means something).
    @Test func theScannerSeesACallAndAnImport() {
        let text = """
            import Glibc
            let fd = open(path, O_RDONLY)
            guard fsync(fd) == 0 else { return }
            _ = Glibc.rename(a, b)
            reader.read(into: buffer)
            func close(_ x: Int) {}
            try write(bytes)
            send(handle, topic: topic)
            close(0x7D)
            """
        let found = Self.findings(in: text, file: "Example.swift")
        #expect(found.count == 4, "\(found)")
    }

    /// Lines `file:line: what` for every `import Glibc` and C call under `sources` outside
    /// Platform and the C modules (a folder whose name starts with a capital C and a capital).
    static func findings(under sources: URL) throws -> [String] {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            let module = relative.split(separator: "/").first.map(String.init) ?? ""
            if module == "Platform" { continue }
            if module.count > 1, module.first == "C", module.dropFirst().first?.isUppercase == true { continue }
            found += findings(in: try String(contentsOf: file, encoding: .utf8), file: relative)
        }
        return found.sorted()
    }

    /// A call is the function's name not after a `.` nor part of a longer name, followed by `(`; not
    /// a declaration (`func read(`), not a throwing call (`try write(`: the C functions throw
    /// nothing), not one with argument labels (`send(handle, topic:`) nor with a single integer
    /// literal (a JSON writer's `close(0x7D)`), not a `read` or `write` of fewer than three arguments:
    /// those are Swift methods of the same name.
    static func findings(in text: String, file: String) -> [String] {
        let names = floorCalls.joined(separator: "|")
        let call = try! Regex("(?:Glibc\\.)?(\(names))\\(")
        let labelled = try! Regex("^\\s*\\w+:\\s|[,(]\\s*\\w+:\\s")
        let integer = try! Regex("\\s*(0x[0-9A-Fa-f]+|[0-9]+)\\s*")
        var found: [String] = []
        for (number, fullLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = fullLine.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("import Glibc") {
                found.append("\(file):\(number + 1): import Glibc")
            }
            guard line.contains("(") else { continue }
            for match in line.matches(of: call) {
                if let previous = line[..<match.range.lowerBound].last,
                    previous == "." || previous == "_" || previous.isLetter || previous.isNumber
                {
                    continue  // a method (`reader.read(`) or a longer name (`pollThenRead(`)
                }
                let before = line[..<match.range.lowerBound].trimmingCharacters(in: .whitespaces)
                if before.hasSuffix("func") || before.hasSuffix("try") || before.hasSuffix("try?") { continue }
                let (arguments, closed) = Self.arguments(line[match.range.upperBound...])
                if arguments.contains(labelled) { continue }
                if arguments.wholeMatch(of: integer) != nil { continue }
                let name = match.output[1].substring ?? ""
                if arguments.isEmpty, name == "stat" { continue }  // `stat()`, the struct
                // `read(plain)`, `write(&buffer)`: C's read and write take three arguments.
                if ["read", "write"].contains(name), closed, arguments.filter({ $0 == "," }).count < 2 { continue }
                found.append("\(file):\(number + 1): \(name)(")
            }
        }
        return found
    }

    /// The text up to the parenthesis that closes the call, and whether it closes on this line (else
    /// the rest of the line).
    static func arguments(_ text: Substring) -> (Substring, closed: Bool) {
        var depth = 1
        for index in text.indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" {
                depth -= 1
                if depth == 0 { return (text[..<index], true) }
            }
        }
        return (text, false)
    }
}
