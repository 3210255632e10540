/// The shell command that answers the alarm (docs/running.md, "Alarms"): `gpsfence ack`, with
/// `--state FILE` when the run keeps its state elsewhere than the default place, where a bare
/// `gpsfence ack` would look and find no state file.
public enum AckCommand {
    /// - Parameter statePath: the run's state file; nil for the default one.
    public static func text(statePath: String?) -> String {
        guard let statePath else { return "gpsfence ack" }
        return "gpsfence ack --state " + shellWord(statePath)
    }

    /// `path` as one word of a POSIX shell: as it is when it holds nothing a shell reads, else in
    /// single quotes.
    static func shellWord(_ path: String) -> String {
        let plain =
            !path.isEmpty && path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+=:,@%".contains($0)) }
        if plain { return path }
        return "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
