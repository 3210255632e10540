import Delivery
import Jobs
import LiveLoop
import Tools

/// `--sync-header` and `--webhook-header` are the same option: one parser, `HTTPHeader.parse`.
func headers(_ arguments: [String], option: String) throws(HTTPHeaderError) -> [HTTPHeader] {
    var parsed: [HTTPHeader] = []
    for argument in arguments {
        parsed.append(try HTTPHeader.parse(argument, option: option, secrets: .environment))
    }
    return parsed
}
