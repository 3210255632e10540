import Delivery
import Jobs
import LiveLoop
import Tools

/// `--sync-header` and `--webhook-header` are the same option: one parser, `HTTPHeader.parse`.
func headers(_ arguments: [String], option: String) throws(InputError) -> [HTTPHeader] {
    var parsed: [HTTPHeader] = []
    for argument in arguments {
        do { parsed.append(try HTTPHeader.parse(argument, option: option, secrets: .environment)) } catch {
            throw InputError(message: "\(error)")
        }
    }
    return parsed
}
