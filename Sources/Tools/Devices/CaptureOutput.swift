import LiveLoop
import Platform
import SystemPackage

/// Where `record` writes (docs/running.md): a file, which it never overwrites unless asked
/// (`--force`) and may add to (`--append`), or standard output (`--output -`).
public struct CaptureOutput: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// A new file; an existing one is refused (bad usage, exit status 2).
        case create
        /// `--force`: an existing file is replaced.
        case overwrite
        /// `--append`: the new recording, with its own header, goes after what the file holds.
        case append
    }

    /// nil: standard output.
    public var path: String?
    public var mode: Mode

    public init(path: String?, mode: Mode = .create) {
        self.path = path
        self.mode = mode
    }

    /// `-` is standard output, as for other tools that write captures.
    public init(argument: String, mode: Mode = .create) {
        self.init(path: argument == "-" ? nil : argument, mode: mode)
    }

    /// How messages name it.
    public var name: String { path.map { "'\($0)'" } ?? "standard output" }

    /// The corresponding C function is `open` (`O_EXCL` for `.create`, so that a file made between
    /// a check and the open is not clobbered either).
    func open() throws -> CaptureFile {
        guard let path else { return CaptureFile(descriptor: .standardOutput, name: name, createdPath: nil) }
        let options: FileDescriptor.OpenOptions =
            switch mode {
            case .create: [.create, .exclusiveCreate]
            case .overwrite: [.create, .truncate]
            case .append: [.create, .append]
            }
        do {
            let descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: options,
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            return CaptureFile(
                descriptor: descriptor, name: name, path: path, createdPath: mode == .create ? path : nil)
        } catch Errno.fileExists where Self.isRegularFile(path) {
            throw InputError.option(.captureExists(path: path))
        } catch Errno.fileExists {
            // Not a capture but a device or a pipe (`/dev/null`, a FIFO another program reads):
            // written to as it is, nothing to overwrite.
            do {
                return CaptureFile(
                    descriptor: try FileDescriptor.open(FilePath(path), .writeOnly), name: name, path: path,
                    createdPath: nil)
            } catch {
                throw InputError.unwritable(path: path, cause: .error(error))
            }
        } catch {
            throw InputError.unwritable(path: path, cause: .error(error))
        }
    }

    /// The corresponding C function is `stat` (following links: a link to a capture is a capture).
    static func isRegularFile(_ path: String) -> Bool {
        (try? FileStatus.of(path))?.kind == .regular
    }
}

/// An open capture output.
struct CaptureFile {
    let descriptor: FileDescriptor
    let name: String
    /// Nil for standard output.
    var path: String? = nil
    /// The path when this run created the file (it may remove it again if nothing was recorded).
    let createdPath: String?

    func write(lines: [String]) throws {
        try Array((lines.joined(separator: "\n") + "\n").utf8).withUnsafeBytes { try write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try descriptor.writeAll(bytes)
        } catch {
            // The file opened, so the path was good: a full or failing disk is not bad input.
            throw RuntimeFailure.unwritable(path: path, cause: .error(error))
        }
    }

    /// The corresponding C function is `fsync` (which fails, harmlessly, on a pipe).
    func sync() { syncFile(descriptor) }

    /// Closes it; a file this run created holding no recording (the receiver was never found) is
    /// removed again, so that a failed record leaves nothing behind. A record that is killed
    /// never gets here and leaves its header.
    func close(discardingNewFile discard: Bool) {
        guard descriptor != .standardOutput else { return }
        try? descriptor.close()
        if discard, let createdPath { removeFile(createdPath) }
    }
}
