import Foundation
import Testing

@Suite struct DecodeCommandTests {
    @Test func unreadableFileIsExitStatusTwoWithMessage() throws {
        let result = try runGPSFence(["decode", "/nonexistent/capture.nmea"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/capture.nmea"))
        #expect(result.stdout.isEmpty)
    }
}
