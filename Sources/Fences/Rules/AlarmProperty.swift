extension GeoJSONLoader {
    /// `"alarm": true` (the fence's `enter` and `exit` raise an alarm), `false`, or a list of the
    /// event types that do (`["exit"]`): docs/fences.md, "Alarms".
    mutating func readAlarmProperty(pending: inout FenceProblem?) throws -> [FenceEventType]? {
        let start = scanner.pos
        if scanner.peek() == 0x74 || scanner.peek() == 0x66 {
            return try scanner.bool() ? [.enter, .exit] : nil
        }
        var list: [FenceEventType] = []
        for name in try stringList("alarm", pending: &pending) {
            if let type = FenceEventType(rawValue: name) {
                list.append(type)
            } else if name.lowercased() == "true" {
                // A spreadsheet cell reads `TRUE` as text in some exports.
                list += [.enter, .exit]
            } else {
                pending = pending ?? .property(.unknownAlarmType(written: snippet(start), name: name))
            }
        }
        return list.isEmpty ? nil : list
    }
}
