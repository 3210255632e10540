import Foundation
import Platform
import Receivers
import Testing

/// `ReceiverConversation` on a real pseudo-terminal: the test plays the receiver on the master
/// side, with byte strings taken from u-blox's and MediaTek's protocol descriptions.
@Suite struct ReceiverConversationTests {
    func bytes(_ hex: String) -> [UInt8] { hex.split(separator: " ").map { UInt8($0, radix: 16)! } }

    /// Everything the host wrote within `seconds`.
    func drain(_ terminal: PseudoTerminal, seconds: Double) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            received += terminal.readIncoming()
            usleep(10_000)
        }
        return received
    }

    /// Answers `answer` once the host's bytes include `expected`, on a thread of its own.
    func answer(_ answer: [UInt8], after expected: [UInt8], on master: PseudoTerminal) {
        let box = MasterSide(master)
        let thread = Thread {
            let terminal = box.terminal
            var received: [UInt8] = []
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                received += terminal.readIncoming()
                if received.count >= expected.count,
                    (0...(received.count - expected.count)).contains(where: {
                        Array(received[$0..<($0 + expected.count)]) == expected
                    })
                {
                    _ = answer.withUnsafeBytes { terminal.writeAvailable($0) }
                    return
                }
                usleep(5_000)
            }
        }
        thread.start()
    }

    // UBX-CFG-RATE, 200 ms, 1 cycle, GPS time: the example frame of the u-blox M8 description.
    let rate200 = "B5 62 06 08 06 00 C8 00 01 00 01 00 DE 6A"

    @Test func aCommandThatIsNeverAnsweredIsSentTwiceThenReportedUnanswered() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
        defer { port.close() }
        let conversation = ReceiverConversation(port: port)
        let outcome = try conversation.command(UBXRate(measurementMilliseconds: 200).frame, timeout: 0.3)
        #expect(outcome == .unanswered)
        #expect(drain(terminal, seconds: 0.1) == bytes(rate200 + " " + rate200))
    }

    @Test func aNakNamingTheMessageIsARefusalAndAnAckOfAnotherIsNotAnAnswer() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
        defer { port.close() }
        let conversation = ReceiverConversation(port: port)
        // ACK-ACK of CFG-MSG (06 01) first, then ACK-NAK of CFG-RATE (06 08), NMEA in between.
        let ackOfMessage = bytes("B5 62 05 01 02 00 06 01 0F 38")
        let nakOfRate = bytes("B5 62 05 00 02 00 06 08 15 3A")
        answer(ackOfMessage + Array("$GPTXT,01,01,02,x*00\r\n".utf8) + nakOfRate, after: bytes(rate200), on: terminal)
        let outcome = try conversation.command(UBXRate(measurementMilliseconds: 200).frame, timeout: 2)
        #expect(outcome == .refused(detail: "UBX-ACK-NAK"))
    }

    @Test func aMediaTekAcknowledgementCarriesItsFlag() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
        defer { port.close() }
        let conversation = ReceiverConversation(port: port)
        answer(Array("$PMTK001,220,3*30\r\n".utf8), after: Array("$PMTK220,200*2C\r\n".utf8), on: terminal)
        #expect(try conversation.command(PMTKCommand.outputInterval(milliseconds: 200), timeout: 2) == .accepted)
        // Flag 2: valid command, but the action failed.
        answer(Array("$PMTK001,220,2*31\r\n".utf8), after: Array("$PMTK220,40*1A\r\n".utf8), on: terminal)
        let refused = try conversation.command(PMTKCommand.outputInterval(milliseconds: 40), timeout: 2)
        #expect(refused == .refused(detail: "PMTK001 flag 2 (failed)"))
    }

    @Test func identifyAsksBothWaysAndTakesTheFirstAnswer() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
        defer { port.close() }
        let conversation = ReceiverConversation(port: port)
        // The UBX-MON-VER poll is B5 62 0A 04 00 00 0E 34; a MediaTek answers only $PMTK605*31.
        answer(
            Array("$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B\r\n".utf8), after: Array("$PMTK605*31\r\n".utf8),
            on: terminal)
        let identity = try conversation.identify(seconds: 2)
        #expect(identity == .mediaTek(PMTKFirmware(release: "AXN_2.31_3339_13101700", model: "PA6H")))
    }

    @Test func everySentenceHasItsNameInEachProtocol() {
        // CFG-MSG GRS (F0 06) off; CFG-MSGOUT-NMEA_ID_GRS_UART1 is 0x209100CF; PMTK314 field 17 is ZDA.
        let grsOff = UBXMessageRate(messageClass: 0xF0, id: UBXMessageRate.nmeaID("GRS")!, rate: 0)
        #expect(grsOff.frame.bytes == bytes("B5 62 06 01 03 00 F0 06 00 00 1B"))
        #expect(UBXConfigurationKey.nmeaOutputUART1("GRS")?.id == 0x2091_00CF)
        #expect(PMTKCommand.sentences(["ZDA"]).sentence == "$PMTK314,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0*29\r\n")
        #expect(PMTKCommand.sentences(["GNS"]).sentence.hasPrefix("$PMTK314,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0*"))
    }
}

/// The master side handed to the answering thread (the test's thread no longer touches it).
private final class MasterSide: @unchecked Sendable {
    let terminal: PseudoTerminal
    init(_ terminal: PseudoTerminal) { self.terminal = terminal }
}
