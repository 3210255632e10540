import Platform
import Receivers
import Testing

/// UBX and PMTK layouts against the byte strings printed in u-blox's protocol descriptions and
/// MediaTek's command sheets (docs/hardware.md).
@Suite struct ReceiverProtocolTests {
    func bytes(_ hex: String) -> [UInt8] { hex.split(separator: " ").map { UInt8($0, radix: 16)! } }

    @Test func pollsAndAcknowledgements() {
        #expect(UBXMessage.poll(UBXMessage.Kind.monVer).bytes == bytes("B5 62 0A 04 00 00 0E 34"))
        #expect(UBXMessage.poll(UBXMessage.Kind.cfgRate).bytes == bytes("B5 62 06 08 00 00 0E 30"))
        let ack = UBXAcknowledgement(accepted: true, messageClass: 0x06, id: 0x01)
        #expect(ack.frame.bytes == bytes("B5 62 05 01 02 00 06 01 0F 38"))
        var parser = UBXFrameParser()
        let frames = parser.push(Array("$GPTXT,hello*00\r\n".utf8) + bytes("B5 62 05 01 02 00 06 01 0F 38"))
        #expect(frames.compactMap(UBXAcknowledgement.init) == [ack])
    }

    @Test func configurationMessagesOfGenerationEightAndOlder() {
        #expect(UBXRate(measurementMilliseconds: 200).frame.bytes == bytes("B5 62 06 08 06 00 C8 00 01 00 01 00 DE 6A"))
        #expect(UBXRate(measurementMilliseconds: 100).frame.bytes == bytes("B5 62 06 08 06 00 64 00 01 00 01 00 7A 12"))
        let gsvOff = UBXMessageRate(messageClass: 0xF0, id: UBXMessageRate.nmeaID("GSV")!, rate: 0)
        #expect(gsvOff.frame.bytes == bytes("B5 62 06 01 03 00 F0 03 00 FD 15"))
        let gllOff = UBXMessageRate(messageClass: 0xF0, id: UBXMessageRate.nmeaID("GLL")!, rate: 0)
        #expect(gllOff.frame.bytes == bytes("B5 62 06 01 03 00 F0 01 00 FB 11"))
        #expect(
            UBXSaveConfiguration().frame.bytes
                == bytes("B5 62 06 09 0D 00 00 00 00 00 FF FF 00 00 00 00 00 00 17 31 BF"))
        let port = UBXPortSettings(baudRate: 115200)
        #expect(
            port.frame.bytes
                == bytes("B5 62 06 00 14 00 01 00 00 00 D0 08 00 00 00 C2 01 00 07 00 03 00 00 00 00 00 C0 7E"))
        #expect(UBXPortSettings(port.frame) == port)
        #expect(UBXRate(UBXRate(measurementMilliseconds: 100).frame)?.measurementMilliseconds == 100)
    }

    @Test func valueSetCarriesEachKeyAtItsSize() throws {
        let set = UBXValueSet(
            layers: UBXValueSet.ram,
            values: [(.rateMeasurement, 100), (.uart1BaudRate, 115200), (try #require(.nmeaOutputUART1("GSV")), 0)])
        let payload = set.frame.payload
        // version 0, RAM, reserved; 0x30210001 = 100 (U2); 0x40520001 = 115200 (U4); 0x209100C5 = 0 (U1).
        #expect(
            payload
                == bytes(
                    "00 01 00 00 01 00 21 30 64 00 01 00 52 40 00 C2 01 00 C5 00 91 20 00"))
        #expect(UBXValueSet(set.frame) == set)
        // A key of no known size cannot be parsed (the receiver refuses it).
        var broken = set.frame
        broken.payload[7] = 0x00
        #expect(UBXValueSet(broken) == nil)
    }

    @Test func monitorVersionNamesTheGeneration() {
        let version = UBXVersion(
            software: "ROM CORE 3.01 (107888)", hardware: "00080000",
            extensions: ["FWVER=SPG 3.01", "PROTVER=18.00", "MOD=NEO-M8N"])
        let frame = version.frame
        #expect(frame.payload.count == 40 + 3 * 30)
        #expect(UBXVersion(frame) == version)
        #expect(version.protocolVersion == 18)
        #expect(version.module == "NEO-M8N")
    }

    @Test func mediaTekCommands() {
        #expect(PMTKCommand.outputInterval(milliseconds: 100).sentence == "$PMTK220,100*2F\r\n")
        #expect(PMTKCommand.outputInterval(milliseconds: 1000).sentence == "$PMTK220,1000*1F\r\n")
        #expect(PMTKCommand.fixInterval(milliseconds: 100).sentence == "$PMTK300,100,0,0,0,0*2C\r\n")
        #expect(
            PMTKCommand.sentences(["RMC", "GGA"]).sentence == "$PMTK314,0,1,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0*28\r\n")
        #expect(PMTKCommand.baudRate(115200).sentence == "$PMTK251,115200*1F\r\n")
        #expect(PMTKCommand.firmwareQuery.sentence == "$PMTK605*31\r\n")
        let ack = PMTKAcknowledgement(PMTKCommand(sentence: "$PMTK001,220,3*30")!)
        #expect(ack == PMTKAcknowledgement(packetType: 220, flag: .succeeded))
        #expect(ack?.command.sentence == "$PMTK001,220,3*30\r\n")
        let firmware = PMTKFirmware(PMTKCommand(sentence: "$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B")!)
        #expect(firmware == PMTKFirmware(release: "AXN_2.31_3339_13101700", model: "PA6H"))
        #expect(PMTKCommand(sentence: "$GPGGA,1*00") == nil)
    }
}
