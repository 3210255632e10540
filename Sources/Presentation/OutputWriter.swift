import NMEA
import Platform
import SystemPackage

/// Buffered line output to a file descriptor (stdout, stderr), written with `write(2)` in large
/// chunks so that decoding a big capture is not bound by one syscall per line. Safe to share
/// between threads: lines are never interleaved.
public final class OutputWriter: Sendable {
    private let descriptor: FileDescriptor
    private let buffer = Locked<[UInt8]>([])
    private let flushThreshold: Int
    /// Lines this long bypass the buffer.
    static let directLineBytes = 64 * 1024

    public static let standardOutput = OutputWriter(descriptor: .standardOutput)
    public static let standardError = OutputWriter(descriptor: .standardError, flushThreshold: 0)

    public init(descriptor: FileDescriptor, flushThreshold: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.flushThreshold = flushThreshold
    }

    deinit { flush() }

    public func write(line: String) {
        buffer.withLock { buffer in
            // A long line (`registered` naming a million fences is 18 MB) goes straight out:
            // appended, it would leave the buffer that large for the whole run.
            if line.utf8.count >= Self.directLineBytes {
                write(&buffer)
                var line = line
                line.withUTF8 { _ = try? descriptor.writeAll(UnsafeRawBufferPointer($0)) }
                _ = withUnsafeBytes(of: UInt8(0x0A)) { try? descriptor.writeAll($0) }
                return
            }
            buffer.append(contentsOf: line.utf8)
            buffer.append(0x0A)
            if buffer.count > flushThreshold { write(&buffer) }
        }
    }

    /// Bytes that are already whole lines (a block of JSON Lines), appended as they are; large
    /// blocks go straight to the descriptor after what is buffered.
    public func write(bytes: UnsafeRawBufferPointer) {
        buffer.withLock { buffer in
            if buffer.count + bytes.count > flushThreshold {
                write(&buffer)
                if bytes.count > flushThreshold {
                    _ = try? descriptor.writeAll(bytes)
                    return
                }
            }
            buffer.append(contentsOf: bytes)
        }
    }

    public func flush() {
        buffer.withLock { write(&$0) }
    }

    private func write(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        _ = try? buffer.withUnsafeBytes { try descriptor.writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
