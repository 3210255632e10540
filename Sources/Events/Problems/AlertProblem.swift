/// A problem of an alert on this machine: `--say`, `--notify`, `--bell` (docs/running.md).
public enum AlertProblem: Sendable, Equatable {
    case say(SayProblem)
    case notify(NotifyProblem)
    case bell(BellProblem)

    public var text: String {
        switch self {
        case .say(let problem): "--say: " + problem.text
        case .notify(let problem): "--notify: " + problem.text
        case .bell(let problem): "--bell: " + problem.text
        }
    }
}
