import Jobs
import LiveLoop
import Platform
import Receivers
import Testing
import Tools

/// The receivers `simulate --receiver` plays, as state machines (docs/hardware.md).
@Suite struct EmulatedReceiverTests {
    func ubx(_ answers: [[UInt8]]) -> [UBXFrame] {
        var parser = UBXFrameParser()
        return answers.flatMap { parser.push($0) }
    }

    @Test func anM8AnswersVersionAndTakesLegacyConfiguration() {
        let receiver = EmulatedReceiver(model: .ubloxM8)
        let version = ubx(receiver.receive(UBXMessage.poll(UBXMessage.Kind.monVer).bytes)).compactMap(UBXVersion.init)
        #expect(version.first?.module == "NEO-M8N")
        let rate = ubx(receiver.receive(UBXRate(measurementMilliseconds: 200).frame.bytes))
        #expect(
            rate.compactMap(UBXAcknowledgement.init) == [UBXAcknowledgement(accepted: true, messageClass: 6, id: 8)])
        #expect(receiver.output.rate == 5)
        _ = receiver.receive(UBXMessageRate(messageClass: 0xF0, id: 0x03, rate: 0).frame.bytes)
        #expect(!receiver.output.sentences.contains("GSV"))
        _ = receiver.receive(UBXPortSettings(baudRate: 115200).frame.bytes)
        #expect(receiver.output.baud == BaudRate(115200))
        #expect(receiver.saved == nil)
        _ = receiver.receive(UBXSaveConfiguration().frame.bytes)
        #expect(receiver.saved == receiver.output)
        // VALSET is generation 9 and later.
        let valset = UBXValueSet(layers: UBXValueSet.ram, values: [(.rateMeasurement, 100)])
        #expect(ubx(receiver.receive(valset.frame.bytes)).compactMap(UBXAcknowledgement.init).first?.accepted == false)
    }

    @Test func anM10RefusesLegacyRateAndAValueSetWithOneUnknownKeyWhole() {
        let receiver = EmulatedReceiver(model: .ubloxM10)
        let legacy = ubx(receiver.receive(UBXRate(measurementMilliseconds: 100).frame.bytes))
        #expect(
            legacy.compactMap(UBXAcknowledgement.init) == [UBXAcknowledgement(accepted: false, messageClass: 6, id: 8)])
        #expect(receiver.output.rate == 1)
        let mixed = UBXValueSet(
            layers: UBXValueSet.ram, values: [(.rateMeasurement, 100), (UBXConfigurationKey(0x2091_0999), 1)])
        #expect(ubx(receiver.receive(mixed.frame.bytes)).compactMap(UBXAcknowledgement.init).first?.accepted == false)
        #expect(receiver.output.rate == 1, "nothing of a refused set applies")
        let good = UBXValueSet(
            layers: UBXValueSet.ram | UBXValueSet.batteryBacked,
            values: [(.rateMeasurement, 100), (UBXConfigurationKey.nmeaOutputUART1("GSV")!, 0)])
        #expect(ubx(receiver.receive(good.frame.bytes)).compactMap(UBXAcknowledgement.init).first?.accepted == true)
        #expect(receiver.output.rate == 10)
        #expect(!receiver.output.sentences.contains("GSV"))
        #expect(receiver.saved == receiver.output)
    }

    @Test func aMediaTekChangesOutputAndFixRateSeparatelyAndAcknowledges() {
        let receiver = EmulatedReceiver(model: .mtk)
        let firmware = receiver.receive(Array(PMTKCommand.firmwareQuery.sentence.utf8))
        #expect(firmware.map { String(decoding: $0, as: UTF8.self) }.first?.hasPrefix("$PMTK705,AXN_2.31") == true)
        let answer = receiver.receive(Array(PMTKCommand.outputInterval(milliseconds: 200).sentence.utf8))
        #expect(answer == [Array("$PMTK001,220,3*30\r\n".utf8)])
        #expect(receiver.output.rate == 5)
        #expect(receiver.output.fixRate == 1, "PMTK220 alone repeats the same fix")
        _ = receiver.receive(Array(PMTKCommand.fixInterval(milliseconds: 200).sentence.utf8))
        #expect(receiver.output.fixRate == 5)
        _ = receiver.receive(Array(PMTKCommand.sentences(["RMC", "GGA"]).sentence.utf8))
        #expect(receiver.output.sentences == ["RMC", "GGA"])
        #expect(receiver.receive(Array(PMTKCommand.baudRate(38400).sentence.utf8)).isEmpty)
        #expect(receiver.output.baud == BaudRate(38400))
        let unknown = receiver.receive(Array(PMTKCommand(packetType: 999).sentence.utf8))
        #expect(unknown.map { String(decoding: $0, as: UTF8.self) } == ["$PMTK001,999,1*3B\r\n"])
    }

    @Test func theBaudBudgetCountsTenBitsAByte() {
        // GGA + RMC + GSA + GSV = 514 bytes a cycle: 10 Hz is 5140 B/s, over 9600 baud's 960 B/s.
        let heavy = BaudBudget(sentences: ["GGA", "RMC", "GSA", "GSV"], rate: 10, baud: BaudRate(9600)!)
        #expect(heavy.bytesPerSecond == 5140)
        #expect(!heavy.fits)
        #expect(
            BaudBudget.slowestFitting(
                sentences: ["GGA", "RMC", "GSA", "GSV"], rate: 10, candidates: BaudRate.huntOrder)
                == BaudRate(115200))
        // GGA + RMC at 5 Hz: 820 B/s, over 85 % of 9600 baud's 960 B/s; at 4 Hz 656 B/s fits.
        #expect(!BaudBudget(sentences: ["GGA", "RMC"], rate: 5, baud: BaudRate(9600)!).fits)
        #expect(BaudBudget(sentences: ["GGA", "RMC"], rate: 4, baud: BaudRate(9600)!).fits)
    }
}
