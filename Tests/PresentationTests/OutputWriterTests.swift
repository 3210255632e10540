import Foundation
import Presentation
import SystemPackage
import Testing

/// Lines come out whole and in the order written, whether they go through the buffer or, when
/// long, straight to the descriptor.
@Suite struct OutputWriterTests {
    @Test func aLongLineKeepsItsPlaceBetweenBufferedOnes() throws {
        let path = NSTemporaryDirectory() + "output-writer-\(getpid()).txt"
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(
            path, .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite])
        let long = String(repeating: "x", count: 200_000)
        do {
            let writer = OutputWriter(descriptor: descriptor)
            writer.write(line: "first")
            writer.write(line: long)
            writer.write(line: "last")
            writer.write(line: long + "y")
            writer.flush()
        }
        try descriptor.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "first\n" + long + "\nlast\n" + long + "y\n")
    }
}
