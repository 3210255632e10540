import Testing

@testable import JSONOutput

/// The writer's ways of putting together JSON made elsewhere, so that no other module splices it
/// from string literals: arrays of values, an object's members after a prefix, properties made one
/// line, and the spaced layout of a feature added by hand.
@Suite struct JSONCompositionTests {
    @Test func arraysOfValuesOfEveryKind() {
        var line = JSONLine()
        line.addArray("ids", json: [#""a""#, "1", #"{"k":true}"#])
        line.addArray("days", [0, 3, -1])
        line.addArray("names", strings: ["x\"y", "é"])
        line.addArray("none", json: [])
        #expect(line.string == #"{"ids":["a",1,{"k":true}],"days":[0,3,-1],"names":["x\"y","é"],"none":[]}"#)
        #expect(JSONLine.array(json: []) == "[]")
        #expect(JSONLine.array(json: [#"{"a":1}"#, "null"]) == #"[{"a":1},null]"#)
    }

    @Test func anObjectsMembersFollowAPrefix() {
        let out = JSONBuffer()
        out.beginObject()
        out.key("event_type")
        out.value("enter")
        out.appendMembers(ofObject: #"{"id":"1","fence":{"a":[1,2]}}"#)
        out.key("after")
        out.value(true)
        out.endObject()
        #expect(out.string == #"{"event_type":"enter","id":"1","fence":{"a":[1,2]},"after":true}"#)

        let empty = JSONBuffer()
        empty.beginObject()
        empty.key("event_type")
        empty.value("x")
        empty.appendMembers(ofObject: "{}")
        empty.endObject()
        #expect(empty.string == #"{"event_type":"x"}"#)
    }

    @Test func propertiesAreMadeOneLineOutsideTheirStrings() {
        let written = "{\r\n \"name\" : \"Main  Street, 2\",\n\t\"tags\": [ 1 , 2 ],\n \"odd\": \"a\u{7F}b\u{85}c\" }"
        let minified = String(decoding: MinifiedJSON.bytes(Array(written.utf8)), as: UTF8.self)
        #expect(minified == #"{"name":"Main  Street, 2","tags":[1,2],"odd":"a\u007fb\u0085c"}"#)
        #expect(MinifiedJSON.isMinified(Array(minified.utf8)))
        #expect(!MinifiedJSON.isMinified(Array(written.utf8)))
        #expect(MinifiedJSON.isMinified(Array(#"{"a":"b c","e":"\" d"}"#.utf8)))
        #expect(!MinifiedJSON.isMinified(Array("{\"a\":\"b\u{7F}\"}".utf8)))
    }

    @Test func aSpacedObjectKeepsItsStrings() {
        let text = #"{"name":"a, b: c","radius":75,"at":[1.5,2]}"#
        #expect(MinifiedJSON.spaced(Array(text.utf8)) == #"{"name": "a, b: c", "radius": 75, "at": [1.5, 2]}"#)
        #expect(MinifiedJSON.spaced(Array(#"{"q":"\",\":"}"#.utf8)) == #"{"q": "\",\":"}"#)
    }
}
