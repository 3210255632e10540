import Glibc
import SystemPackage

/// Why a secret file was not read; `description` names the file and, where there is one, the fix.
public struct SecretFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// `open`, `fstat` or `read` failed with this errno.
        case failed(operation: String, Errno)
        /// Not a regular file: a directory, a device, a FIFO, a socket (what it is, in words).
        case notRegular(String)
        /// Group or others may read it; the permission bits.
        case readableByOthers(mode: UInt32)
        /// Larger than `SecretFile.sizeLimit`: not a password or a token.
        case tooLarge
        /// The first line is not UTF-8.
        case notText
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .failed(let operation, let errno):
            return "\(operation) '\(path)' failed: \(errno.description)"
        case .notRegular(let kind):
            return "'\(path)' is \(kind), not a regular file"
        case .readableByOthers(let mode):
            let octal = "0" + String(mode & 0o7777, radix: 8)
            return "'\(path)' is readable by other users (mode \(octal)); a secret file must be private: "
                + "chmod 600 \(path)"
        case .tooLarge:
            return "'\(path)' is larger than \(SecretFile.sizeLimit) bytes, too large for a password or token"
        case .notText:
            return "'\(path)' does not hold UTF-8 text"
        }
    }
}

/// The one reader of files that hold a password or a token.
///
/// Such a file is refused, as ssh refuses a private key, when its group or other users may read
/// it: the secret is kept off the command line so that other local users cannot read it, and a
/// file they can read would undo that. The checks are made on the opened descriptor (`fstat`, not
/// `stat` on the path), so the file checked is the file read. systemd's credentials
/// (`LoadCredential=`) are mode 0400 and owned by the service's user: they pass.
public enum SecretFile {
    /// The most bytes read: a password or a bearer token is far smaller.
    public static let sizeLimit = 65536

    /// The first line of the file at `path`, without its line break (`\n` or `\r\n`).
    /// The corresponding C functions are `open` (`O_NONBLOCK`, so a FIFO cannot hang the start),
    /// `fstat` and `read`.
    public static func firstLine(of path: String) -> Result<String, SecretFileError> {
        func failure(_ reason: SecretFileError.Reason) -> Result<String, SecretFileError> {
            .failure(SecretFileError(path: path, reason: reason))
        }
        let descriptor: Int32
        switch retryingInterrupts({ open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }) {
        case .success(let opened): descriptor = opened
        case .failure(let errno): return failure(.failed(operation: "open", errno))
        }
        defer { close(descriptor) }
        var status = stat()
        if case .failure(let errno) = retryingInterrupts({ fstat(descriptor, &status) }) {
            return failure(.failed(operation: "fstat", errno))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { return failure(.notRegular(kindName(type))) }
        guard status.st_mode & 0o077 == 0 else { return failure(.readableByOthers(mode: status.st_mode)) }
        guard status.st_size <= sizeLimit else { return failure(.tooLarge) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= sizeLimit {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingInterrupts { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            switch count {
            case .success(0): break
            case .success(let count):
                bytes += chunk[..<count]
                continue
            case .failure(let errno): return failure(.failed(operation: "read", errno))
            }
            break
        }
        guard bytes.count <= sizeLimit else { return failure(.tooLarge) }
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard let text = String(validating: line, as: UTF8.self) else { return failure(.notText) }
        return .success(text)
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}
