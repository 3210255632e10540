import SystemPackage

/// A capture to read: a file path, or `-` for standard input (docs/hardware.md).
public struct CaptureInput: Sendable {
    public let path: String
    public var isStandardInput: Bool { path == "-" }
    public var displayName: String { isStandardInput ? "<stdin>" : path }

    public init(path: String) { self.path = path }

    /// Opens every input before any is read, so that a typo in the third path fails before the
    /// first has printed anything.
    public static func open(_ inputs: [CaptureInput]) throws(InputError) -> [(CaptureInput, FileDescriptor)] {
        var opened: [(CaptureInput, FileDescriptor)] = []
        for input in inputs {
            if input.isStandardInput {
                opened.append((input, .standardInput))
                continue
            }
            do {
                let descriptor = try FileDescriptor.open(FilePath(input.path), .readOnly)
                opened.append((input, descriptor))
            } catch let error as Errno {
                for (other, descriptor) in opened where !other.isStandardInput { try? descriptor.close() }
                throw InputError.unreadable(path: input.path, cause: .error(error))
            } catch {
                throw InputError.unreadable(path: input.path, cause: .error(error))
            }
        }
        return opened
    }

    /// Reads a descriptor to its end in large chunks, handing each chunk over as it arrives.
    public static func read(
        _ descriptor: FileDescriptor, chunkSize: Int = 256 * 1024, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try descriptor.read(into: chunk, retryOnInterrupt: true)
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }
}
