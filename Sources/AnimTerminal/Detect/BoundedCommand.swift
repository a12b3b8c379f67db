import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

// glibc declares it only under _GNU_SOURCE, which the Glibc module does not set.
@_silgen_name("pipe2") private func cPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Runs helper programs (tmux) with a deadline: the probe must never
/// block on a server that hangs.
///
/// Each program runs in its own process group, stdin and stderr on
/// `/dev/null`, stdout on a pipe read until it exits or the shared
/// deadline passes; then the group is killed and reaped.
enum BoundedCommand {
    /// The most output kept from one command.
    static let maxOutput = 64 * 1024

    /// The standard output of each command that exited with status 0 before
    /// `timeoutMs` (else nil); `environment` is the children's, its `PATH`
    /// where the programs are found.
    static func run(
        _ commands: [[String]], environment: [String: String], timeoutMs: Int,
        clock: any Clock<Duration> = SuspendingClock()
    ) -> [[UInt8]?] {
        let clock = PlaybackClock(clock)
        let deadline = clock.nanoseconds() + Int64(timeoutMs) * 1_000_000
        var children = commands.map { spawn($0, environment: environment) }
        while children.contains(where: { $0?.isRunning == true }) {
            let left = deadline - clock.nanoseconds()
            guard left > 0 else { break }
            collect(&children, waitMs: Int32(min(max(left / 1_000_000, 1), 1000)))
        }
        return children.map { $0.flatMap(finish) }
    }

    /// Reaps the children that exited, then reads what is ready within `waitMs`.
    static func collect(_ children: inout [Child?], waitMs: Int32) {
        for i in children.indices where children[i] != nil && children[i]!.status == nil {
            var st: Int32 = 0
            if children[i]!.fd < 0, waitpid(children[i]!.pid, &st, WNOHANG) == children[i]!.pid { children[i]!.status = st }
        }
        let open = children.indices.filter { (children[$0]?.fd ?? -1) >= 0 }
        guard !open.isEmpty else {
            usleep(1000)
            return
        }
        var polls = open.map { pollfd(fd: children[$0]!.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&polls, nfds_t(polls.count), waitMs) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (k, i) in open.enumerated() where polls[k].revents != 0 {
            let n = read(polls[k].fd, &buffer, buffer.count)
            if n > 0 {
                let room = maxOutput - children[i]!.output.count
                if room > 0 { children[i]!.output += buffer[0..<min(n, room)] }
            } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                close(polls[k].fd)
                children[i]!.fd = -1
            }
        }
    }

    /// The output of a child that exited with 0; one still running is
    /// killed and reaped.
    static func finish(_ child: Child) -> [UInt8]? {
        if child.fd >= 0 { close(child.fd) }
        if child.status == nil {
            kill(-child.pid, SIGKILL)
            kill(child.pid, SIGKILL)
            var st: Int32 = 0
            while waitpid(child.pid, &st, 0) < 0 && errno == EINTR {}
        }
        let exitedCleanly = child.status.map { ($0 & 0x7F) == 0 && (($0 >> 8) & 0xFF) == 0 } ?? false
        return exitedCleanly ? child.output : nil
    }

    /// A child: its output pipe (-1 once closed), what it wrote, its status
    /// once reaped.
    struct Child {
        var pid: pid_t
        var fd: Int32
        var output: [UInt8] = []
        var status: Int32?

        var isRunning: Bool { fd >= 0 || status == nil }
    }

    /// Starts `argv` (found on the environment's PATH); nil when it cannot.
    static func spawn(_ argv: [String], environment: [String: String]) -> Child? {
        guard let name = argv.first, let path = find(name, path: environment["PATH"] ?? "/usr/bin:/bin") else { return nil }
        var fds: [Int32] = [0, 0]
        guard cPipe2(&fds, O_CLOEXEC) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        let cArgs = argv.map { strdup($0) }
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for p in cArgs + cEnv { free(p) } }
        var argvPointers = cArgs + [nil]
        var envPointers = cEnv + [nil]
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, &argvPointers, &envPointers)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            return nil
        }
        return Child(pid: pid, fd: fds[0])
    }

    /// The first executable `name` on `path` (a name with `/` as it is).
    static func find(_ name: String, path: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
