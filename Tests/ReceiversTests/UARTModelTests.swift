import NMEA
import Platform
import Receivers
import Testing

@Suite struct UARTModelTests {
    let sentence = SentenceWriter.sentence("GPGGA,101502.00,4216.83600,N,08345.11400,W,1,08,0.9,,M,,M,,")

    @Test func atTheSameRateEveryByteArrivesIntactOneByteTimeApart() {
        let rate = BaudRate(4800)!
        let received = UARTModel.receive(sentence, sentAt: rate, readAt: rate)
        #expect(received.map(\.byte) == sentence)
        // The stop bit of byte n is sampled at (10n + 9.5) bit times.
        #expect(abs(received[3].time - 39.5 / 4800) < 1e-9)
    }

    @Test(arguments: BaudRate.huntOrder)
    func atEveryOtherHuntedRateTheSentenceIsGarbageThatNeverDecodes(reader: BaudRate) {
        for sender in BaudRate.huntOrder where sender != reader {
            let stream = Array((0..<20).map { _ in sentence }.joined())
            let received = UARTModel.receive(stream, sentAt: sender, readAt: reader).map(\.byte)
            #expect(!received.isEmpty, "a UART always sees some edges")
            #expect(received != stream)
            let decoder = Decoder()
            var fixes = 0
            received.withUnsafeBytes { decoder.push($0) { _ in fixes += 1 } }
            decoder.finish { _ in fixes += 1 }
            #expect(fixes == 0, "sender \(sender), reader \(reader)")
            #expect(decoder.framer.counters.sentences == decoder.framer.counters.withoutChecksum)
        }
    }

    @Test func aFramingErrorIsDeliveredAsNUL() {
        // 0x00 sent at 4800 read at 9600: nine low sender bits last 18 reader bits, so the line is
        // still low where the reader samples its stop bit.
        let received = UARTModel.receive([0x00], sentAt: BaudRate(4800)!, readAt: BaudRate(9600)!)
        #expect(received.map(\.byte) == [0x00])
        // 0x00 sent at 9600 read at 4800: the reader's last data samples fall on the sender's stop
        // bit and the idle line after it: 0xF8 with a good stop bit.
        #expect(UARTModel.receive([0x00], sentAt: BaudRate(9600)!, readAt: BaudRate(4800)!).map(\.byte) == [0xF8])
        // 0xFF sent at 4800 read at 9600: start bit, then high: the reader assembles 0xFE (its second
        // sample is still inside the sender's start bit) with a good stop bit.
        #expect(UARTModel.receive([0xFF], sentAt: BaudRate(4800)!, readAt: BaudRate(9600)!).map(\.byte) == [0xFE])
    }

    @Test func theSameInputAlwaysGivesTheSameGarbage() {
        let a = UARTModel.receive(sentence, sentAt: BaudRate(9600)!, readAt: BaudRate(38400)!)
        let b = UARTModel.receive(sentence, sentAt: BaudRate(9600)!, readAt: BaudRate(38400)!)
        #expect(a == b)
    }
}
