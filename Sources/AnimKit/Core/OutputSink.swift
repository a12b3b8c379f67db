import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where an encoder's bytes go: a file written through a temporary file
/// renamed at `commit()` (removed by `abort()`), a file descriptor, or
/// memory. Every write error is thrown at once, naming the output.
final class OutputSink {
    enum Target {
        /// Final path, temporary path, descriptor.
        case file(path: String, temp: String, fd: Int32)
        case descriptor(Int32)
        case memory
    }

    let name: String
    private(set) var target: Target
    /// Bytes written so far (the offset of the next byte).
    private(set) var offset = 0
    private(set) var memory: [UInt8] = []
    private var done = false

    /// A new file at `path`, written to `path.tmp-PID-N` in the same folder;
    /// a symbolic link's target is the file replaced (the link stays).
    /// Anything other than a file (a device, a named pipe) is written to
    /// directly; /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N,
    /// whatever they lead to, through a copy of the process's descriptor.
    init(path: String) throws {
        name = path
        let own = OutputSink.ownDescriptor(path)
        var existing = stat()
        if own != nil || (stat(path, &existing) == 0 && existing.st_mode & S_IFMT != S_IFREG) {
            let fd = own.map { fcntl($0, F_DUPFD_CLOEXEC, 0) } ?? open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileBytes.ioError(path, "open") }
            target = .descriptor(fd)
            if own != nil { base = max(Int(lseek(fd, 0, SEEK_CUR)), 0) }
            ownsDescriptor = true
            return
        }
        let path = LinkTarget.resolve(path)
        // A number no other sink of this process has (sinks may be made on several threads).
        let temp = path + ".tmp-\(getpid())-\(OutputSink.counter.add(1, ordering: .relaxed).newValue)"
        // Registered before it exists: a signal between the two would
        // otherwise leave the file; unlinking a name not made yet does nothing.
        let slot = anim_temporary_add(temp)
        let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)  // less the umask
        guard fd >= 0 else {
            let error = FileBytes.ioError(path, "create")
            anim_temporary_remove(slot)
            throw error
        }
        temporarySlot = slot
        // Replacing a file keeps its mode, owner, group and extended attributes.
        FileAttributes.copy(from: path, to: fd)
        target = .file(path: path, temp: temp, fd: fd)
    }

    init(fileDescriptor fd: Int32, name: String) {
        self.name = name
        target = .descriptor(fd)
        base = max(Int(lseek(fd, 0, SEEK_CUR)), 0)
    }

    /// Where the output started in a seekable descriptor.
    private var base = 0
    /// The temporary file's place in the registry a signal handler empties
    /// (`TemporaryFiles.removeAll`); -1: none.
    private var temporarySlot: Int32 = -1
    /// A descriptor this sink opened (a device path), closed when done.
    private var ownsDescriptor = false

    /// The descriptor number a path like /dev/stdout or /proc/self/fd/3 names.
    private static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    init(memoryNamed name: String = "<memory>") {
        self.name = name
        target = .memory
    }

    private static let counter = Atomic(0)

    /// True when bytes already written can be patched (a file or memory;
    /// a seekable descriptor not opened to append).
    var canPatch: Bool {
        switch target {
        case .file, .memory: return true
        case .descriptor(let fd): return lseek(fd, 0, SEEK_CUR) >= 0 && fcntl(fd, F_GETFL) & O_APPEND == 0
        }
    }

    /// True when what was written can also be read back (`readAll`) and dropped
    /// (`rewind`): a file or memory, or a patchable descriptor open for reading
    /// and writing.
    var canReadBack: Bool {
        switch target {
        case .file, .memory: return true
        case .descriptor(let fd): return canPatch && fcntl(fd, F_GETFL) & O_ACCMODE == O_RDWR
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        switch target {
        case .memory: memory.append(contentsOf: bytes)
        case .file(_, _, let fd), .descriptor(let fd): try check(FileDescriptorIO.writeAll(fd, bytes))
        }
        offset += bytes.count
    }

    func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try write($0) } }

    /// Overwrites bytes written earlier, at `position`.
    func patch(_ bytes: [UInt8], at position: Int) throws {
        precondition(position + bytes.count <= offset, "OutputSink: patch past the end")
        switch target {
        case .memory: memory.replaceSubrange(position..<(position + bytes.count), with: bytes)
        case .file(_, _, let fd), .descriptor(let fd):
            try check(FileDescriptorIO.writeAll(fd, bytes, at: base + position))
        }
    }

    /// Writes `bytes` at `position`, over what was there and past the end
    /// if need be (an encoder rewriting its output in place).
    func rewrite(_ bytes: [UInt8], at position: Int) throws {
        precondition(position <= offset, "OutputSink: rewrite leaves a gap")
        let split = min(bytes.count, offset - position)
        try patch(Array(bytes[..<split]), at: position)
        try write(Array(bytes[split...]))  // the file position is at the end
    }

    /// Throws the errno a write stopped at, if any.
    private func check(_ e: Int32) throws {
        guard e == 0 else { throw AnimError(file: name, IOFailure(operation: "write", errno: e)) }
    }

    /// Everything written so far (an encoder starting over reads it back);
    /// nil when the output cannot be read (a pipe).
    func readAll() -> [UInt8]? { read(at: 0, count: offset) }

    /// `count` bytes written earlier, from `position` (fewer at the end);
    /// nil when the output cannot be read back or the read fails.
    func read(at position: Int, count: Int) -> [UInt8]? {
        let count = max(0, min(count, offset - position))
        switch target {
        case .memory: return Array(memory[position..<(position + count)])
        case .file(_, _, let fd), .descriptor(let fd):
            guard canReadBack else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = bytes.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + done, count - done, off_t(base + position + done))
                }
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return nil
                }
                done += n
            }
            return bytes
        }
    }

    /// Drops what was written after the first `length` bytes (an encoder
    /// that rewrote its output shorter).
    func truncate(to length: Int) throws {
        precondition(length <= offset, "OutputSink: truncate past the end")
        switch target {
        case .memory: memory.removeSubrange(length...)
        case .file(_, _, let fd), .descriptor(let fd):
            guard ftruncate(fd, off_t(base + length)) == 0, lseek(fd, off_t(base + length), SEEK_SET) >= 0 else {
                throw FileBytes.ioError(name, "truncate")
            }
        }
        offset = length
    }

    /// Drops everything written (an encoder starting over); false if the
    /// output cannot be rewound.
    func rewind() -> Bool {
        switch target {
        case .memory: memory.removeAll()
        case .file(_, _, let fd), .descriptor(let fd):
            guard canReadBack, ftruncate(fd, off_t(base)) == 0, lseek(fd, off_t(base), SEEK_SET) >= 0 else { return false }
        }
        offset = 0
        return true
    }

    /// Makes the output final: a file is flushed, closed and renamed over
    /// `path`; `durable`: flushed to the disk before the rename (one output
    /// file: yes; a folder of frames: no).
    func commit(durable: Bool = true) throws {
        guard !done else { return }
        done = true
        defer { anim_temporary_remove(temporarySlot) }
        if ownsDescriptor, case .descriptor(let fd) = target, close(fd) != 0 {
            throw FileBytes.ioError(name, "write")
        }
        if case .file(let path, let temp, let fd) = target {
            var error = durable && fsync(fd) != 0 && errno != EINVAL ? FileBytes.ioError(path, "write") : nil
            if close(fd) != 0 && error == nil { error = FileBytes.ioError(path, "write") }
            if error == nil && rename(temp, path) != 0 { error = FileBytes.ioError(path, "rename into place") }
            if let error {
                unlink(temp)
                throw error
            }
        }
    }

    /// Gives up: a file's temporary is removed; nothing at `path` changes.
    func abort() {
        guard !done else { return }
        done = true
        defer { anim_temporary_remove(temporarySlot) }
        if ownsDescriptor, case .descriptor(let fd) = target { close(fd) }
        if case .file(_, let temp, let fd) = target {
            close(fd)
            unlink(temp)
        }
    }

    deinit { abort() }
}

/// Every temporary file an `OutputSink` is writing now, in this process.
package enum TemporaryFiles {
    /// Removes them all: for a signal handler (async-signal-safe: no
    /// allocation, no lock), which then ends the process.
    package static func removeAll() { anim_temporary_unlink_all() }
}
