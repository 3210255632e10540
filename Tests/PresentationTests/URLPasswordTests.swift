import Presentation
import Testing

@Suite struct URLPasswordTests {
    @Test func thePasswordOfAURLIsFoundAndHidden() {
        #expect(URLPassword.redacted("mqtts://van:p%40ss@10.0.0.2/gps") == "mqtts://van:***@10.0.0.2/gps")
        #expect(URLPassword.redacted("mqtt://van@10.0.0.2") == "mqtt://van@10.0.0.2")
        #expect(URLPassword.redacted("mqtt://10.0.0.2:1883/gps") == "mqtt://10.0.0.2:1883/gps")
        #expect(URLPassword.redacted("mqtt://van:@10.0.0.2") == "mqtt://van:@10.0.0.2")
        #expect(URLPassword.range(in: Array("http://u:pw@h".utf8)) == 9..<11)
    }
}
