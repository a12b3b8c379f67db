#if canImport(Glibc)
import Glibc
#endif

// glibc declares it only under _GNU_SOURCE, which the Glibc module does not set.
@_silgen_name("pipe2") private func cPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Runs helper programs (tmux) with a deadline: the probe must never
/// block on a server that hangs.
///
/// Each program runs in its own process group with stdin and stderr on
/// `/dev/null` and stdout on a pipe. What it prints is read until it exits
/// or the deadline passes; then the whole group is killed (SIGKILL) and
/// reaped. All commands given to one `run` go at once and share the
/// deadline.
enum BoundedCommand {
    /// The most output kept from one command.
    static let maxOutput = 64 * 1024

    /// The standard output of each command that exited with status 0
    /// before `timeoutMs`; nil for one that failed, was not found, or ran
    /// late. `environment` is the children's, and its `PATH` is where the
    /// programs are looked for.
    static func run(_ commands: [[String]], environment: [String: String], timeoutMs: Int,
                    now: () -> Int64 = TerminalProbe.monotonic) -> [[UInt8]?] {
        let deadline = now() + Int64(timeoutMs) * 1_000_000
        var children = commands.map { spawn($0, environment: environment) }
        var outputs = [[UInt8]](repeating: [], count: commands.count)
        var status = [Int32?](repeating: nil, count: commands.count)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var polls: [pollfd] = []
            var owners: [Int] = []
            for (i, c) in children.enumerated() where c != nil && c!.fd >= 0 {
                polls.append(pollfd(fd: c!.fd, events: Int16(POLLIN), revents: 0)); owners.append(i)
            }
            for (i, c) in children.enumerated() where c != nil && c!.fd < 0 && status[i] == nil {
                var st: Int32 = 0
                if waitpid(c!.pid, &st, WNOHANG) == c!.pid { status[i] = st }
            }
            let waiting = children.indices.contains { children[$0] != nil && (children[$0]!.fd >= 0 || status[$0] == nil) }
            let left = deadline - now()
            if !waiting || left <= 0 { break }
            if polls.isEmpty { usleep(1000); continue }
            guard poll(&polls, nfds_t(polls.count), Int32(min(max(left / 1_000_000, 1), 1000))) >= 0 || errno == EINTR else { break }
            for (k, p) in polls.enumerated() where p.revents != 0 {
                let i = owners[k]
                let n = read(p.fd, &buffer, buffer.count)
                if n > 0 {
                    if outputs[i].count < maxOutput { outputs[i] += buffer[0..<min(n, maxOutput - outputs[i].count)] }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(p.fd); children[i]!.fd = -1
                }
            }
        }
        var results: [[UInt8]?] = []
        for (i, c) in children.enumerated() {
            guard let c else { results.append(nil); continue }
            if c.fd >= 0 { close(c.fd) }
            if status[i] == nil {
                kill(-c.pid, SIGKILL); kill(c.pid, SIGKILL)
                var st: Int32 = 0
                while waitpid(c.pid, &st, 0) < 0 && errno == EINTR {}
            }
            let exited = status[i].map { ($0 & 0x7F) == 0 && (($0 >> 8) & 0xFF) == 0 } ?? false
            results.append(exited ? outputs[i] : nil)
        }
        return results
    }

    struct Child { var pid: pid_t; var fd: Int32 }

    /// Starts `argv` (its first element found on the environment's PATH);
    /// nil when it cannot.
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
        defer { (cArgs + cEnv).forEach { free($0) } }
        var argvPointers = cArgs + [nil]
        var envPointers = cEnv + [nil]
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, &argvPointers, &envPointers)
        close(fds[1])
        guard rc == 0 else { close(fds[0]); return nil }
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
