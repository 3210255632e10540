#if canImport(Glibc)
    import Glibc
#endif

/// A child process started by `posix_spawn`, the leader of a process group of its own.
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// Where the child's standard output and standard error go.
    public enum Output: Sendable {
        /// Both to our standard error (a hook's output is the user's to see, never mixed into
        /// our standard output, which may be JSON).
        case standardError
        /// Both to `/dev/null`.
        case discarded
        /// Standard output into the file at this path (made or emptied, readable by this user
        /// only; never through a symbolic link, which could name a file we did not make), for a
        /// program's one-line answer (`notify-send --print-id`); standard error to `/dev/null`.
        case file(String)
    }

    /// Starts `program` (a path: see `ProgramLookup`) with `arguments` (after the program's own
    /// name) and `environment`; its standard input is a new pipe, whose write end is returned (for `InputFeeder`). The
    /// child gets:
    /// - a process group of its own (`POSIX_SPAWN_SETPGROUP`), so that a timeout can kill its
    ///   children too;
    /// - an empty signal mask and every signal at its default disposition (`POSIX_SPAWN_SETSIGMASK`,
    ///   `POSIX_SPAWN_SETSIGDEF`): the spawning thread may block signals (worker threads often do)
    ///   and we ignore SIGPIPE, and a child must not inherit either, or SIGTERM cannot stop it;
    /// - no other file descriptors of ours (`posix_spawn_file_actions_addclosefrom_np`).
    /// The corresponding C functions are `pipe2` and `posix_spawn`.
    public static func spawn(
        _ program: String, arguments: [String] = [], environment: [String], output: Output
    ) -> Result<(child: ChildProcess, input: Int32), SpawnError> {
        var pipeEnds: [Int32] = [-1, -1]
        // Close-on-exec from the start (pipe2): another thread spawning at the same moment must
        // not take our pipe into its child.
        guard GNU.pipe2(&pipeEnds, O_CLOEXEC) == 0 else { return .failure(SpawnError(rawValue: errno)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        switch output {
        case .standardError:
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        _ = GNU.addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        // glibc's sigfillset leaves out its two internal signals (32 and 33, SIGCANCEL and
        // SIGSETXID) and its posix_spawn then sets them to SIG_IGN in the child, which exec keeps:
        // a non-glibc child would start with them ignored. Their bits, set by hand, ask for SIG_DFL.
        allSignals.__val.0 |= 1 << 31 | 1 << 32
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, variables)
        Glibc.close(pipeEnds[0])
        guard result == 0 else {
            Glibc.close(pipeEnds[1])
            return .failure(SpawnError(rawValue: result))
        }
        return .success((ChildProcess(pid: pid), pipeEnds[1]))
    }

    /// The wait status once the child has exited, else nil. `reap: false` leaves it a zombie
    /// (`WNOWAIT`), which keeps its process group id from being reused; the status is then not
    /// read (nil or a placeholder 0). The corresponding C functions are `waitpid` and `waitid`,
    /// EINTR retried.
    public func exitStatus(reap: Bool) -> ExitStatus? {
        if reap {
            var status: Int32 = 0
            let result = retryingInterrupts { waitpid(pid, &status, WNOHANG) }
            return result == .success(pid) ? ExitStatus(rawValue: status) : nil
        }
        var info = siginfo_t()
        let result = retryingInterrupts { waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) }
        return result == .success(0) && info._sifields._kill.si_pid == pid ? ExitStatus(rawValue: 0) : nil
    }

    /// Sends `signal` to the child's whole process group (its own children too).
    /// The corresponding C function is `kill` with a negative pid.
    public func signalGroup(_ signal: Int32) { _ = kill(-pid, signal) }

    /// Waits for the child to exit and reaps it. The corresponding C function is `waitpid`, EINTR
    /// retried.
    @discardableResult
    public func reap() -> ExitStatus {
        var status: Int32 = 0
        _ = retryingInterrupts { waitpid(pid, &status, 0) }
        return ExitStatus(rawValue: status)
    }
}
