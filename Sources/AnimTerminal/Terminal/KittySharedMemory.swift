import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Pixels handed to a kitty on this machine through POSIX shared memory
/// (`t=s`): each upload is an object in `/dev/shm`, named in the command,
/// which the terminal reads and unlinks. Nothing is deflated or
/// base64-encoded, and the pixels do not pass through the pty.
///
/// Used only where the probe saw the terminal read one (query `i=32`): a
/// terminal on another machine cannot. Objects are made with `O_EXCL`,
/// mode 0600 and 64 random bits in the name, so another user can neither
/// read one nor plant one. Objects never read (the player killed first)
/// are removed by the next probe (`removeStale`). Not `Sendable`.
final class KittySharedMemory {
    /// Names start with this, then the process id, `-`, 16 hex digits, `-`,
    /// a count.
    static let prefix = "anim-kitty-"

    /// The start of this instance's names (`/`, `prefix`, pid, random bits, `-`).
    let stem: String
    private var count = 0

    init() {
        stem = "/\(Self.prefix)\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))-"
    }

    /// A new object holding `bytes`, and its name (with the leading `/`);
    /// nil, leaving nothing behind, when it could not be made whole.
    func store(_ bytes: UnsafeRawBufferPointer) -> String? {
        count += 1
        let name = stem + String(count)
        let fd = shm_open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var off = 0
        while off < bytes.count {
            let n = write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                shm_unlink(name)
                return nil
            }
            off += n
        }
        return name
    }

    /// Removes an object made by `store` (the terminal will not read it).
    static func remove(_ name: String) { shm_unlink(name) }

    /// Removes the objects in `/dev/shm` of players no longer running;
    /// returns how many.
    @discardableResult
    static func removeStale() -> Int {
        guard let dir = opendir("/dev/shm") else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            if shm_unlink("/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
