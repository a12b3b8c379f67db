import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// An immutable copy of a file's bytes at a stable address, shared by the
/// container parser and the codecs, which lend pointers into it to the C
/// libraries. Freed when the last source using it goes away.
///
/// `@unchecked Sendable`: its fields never change and the bytes are never
/// written by us (giving pages back does not change what they read); the
/// changed flag is written by the SIGBUS guard only (once, to 1) and read
/// through a volatile load; `indexPasses` is behind its lock.
final class ByteStore: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    /// True when `bytes` is a read-only mapping of a file.
    let isMapped: Bool
    /// The store whose first bytes these are (`prefix`): it owns them.
    private let whole: ByteStore?
    /// Set by the SIGBUS guard (`anim_guard_mapping`) when the mapped file
    /// was truncated under it; nil when the bytes were read.
    private let changedFlag: UnsafeMutablePointer<Int32>?
    /// The mapped file, kept open to see it shrink without reading past
    /// its end (-1 when the bytes were read).
    private let descriptor: Int32
    /// How many times these bytes were indexed (`ImageSource`, for tests).
    let indexPasses = Locked(0)

    private init(
        bytes: UnsafeRawBufferPointer, mapped: Bool = false, whole: ByteStore? = nil,
        changedFlag: UnsafeMutablePointer<Int32>? = nil, descriptor: Int32 = -1
    ) {
        (self.bytes, isMapped, self.whole, self.changedFlag, self.descriptor) = (bytes, mapped, whole, changedFlag, descriptor)
    }

    /// Files at least this large are mapped rather than read.
    static let mapThreshold = 4 << 20

    /// Maps the file at `path` read-only when it is a regular file of at
    /// least `mapThreshold` bytes, else reads it. A mapped store can give
    /// back the pages of data already decoded (`release`), so memory does not
    /// grow with the file. A file truncated while mapped does not end the
    /// process with SIGBUS: the guard reads zeros past the new end and
    /// `changed` turns true.
    static func load(path: String, map: Bool) throws -> ByteStore {
        if map, let mapped = try mapped(path) { return mapped }
        return try ByteStore(readingFile: path)
    }

    private static func mapped(_ path: String) throws -> ByteStore? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileBytes.ioError(path, "open") }
        var kept = false
        defer { if !kept { close(fd) } }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) >= mapThreshold else { return nil }
        guard let p = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        // Container parsing jumps from chunk header to chunk header: map only
        // the pages touched, not their neighbours.
        madvise(p, Int(st.st_size), MADV_RANDOM)
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        guard anim_guard_mapping(p, Int(st.st_size), flag) == 0 else {  // no slot left: read it instead
            munmap(p, Int(st.st_size))
            flag.deallocate()
            return nil
        }
        kept = true
        return ByteStore(
            bytes: UnsafeRawBufferPointer(start: p, count: Int(st.st_size)), mapped: true, changedFlag: flag, descriptor: fd)
    }

    /// True once the mapped file was found truncated: what was read past
    /// its new end were zeros, not the file; or it is shorter now, though
    /// nothing past its end was read yet (its index may have read only a
    /// first page that is still there).
    var changed: Bool {
        if let whole { return whole.changed }
        guard let changedFlag else { return false }
        if anim_mapping_changed(changedFlag) != 0 { return true }
        var st = stat()
        return fstat(descriptor, &st) == 0 && Int(st.st_size) < bytes.count
    }

    /// The first `count` bytes, without a copy (kept alive by this store).
    func prefix(_ count: Int) -> ByteStore {
        ByteStore(
            bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<min(max(count, 0), self.count)]), mapped: isMapped, whole: self)
    }

    /// After indexing: frames are read front to back, so let the kernel read
    /// ahead again (a cold file would otherwise be read a page at a time).
    func adviseSequentialReads() {
        guard isMapped else { return }
        madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count, MADV_NORMAL)
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives the pages of `range` back to the system (mapped stores only):
    /// they are read again from the page cache if touched later.
    func release(_ range: Range<Int>) {
        guard isMapped, !range.isEmpty else { return }
        let page = Self.pageSize
        let start = (range.lowerBound / page) * page
        let end = min(((range.upperBound + page - 1) / page) * page, bytes.count)
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start), end - start, MADV_DONTNEED)
    }

    convenience init(_ source: some Collection<UInt8>) {
        let count = source.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        let copied = source.withContiguousStorageIfAvailable { src in
            if let base = src.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: count) }
            return true
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: source) }
        self.init(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Reads the file at `path` straight into the store (no second copy).
    convenience init(readingFile path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileBytes.ioError(path, "open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileBytes.ioError(path, "stat") }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw AnimError(file: path, IOFailure(operation: "read", errno: EISDIR, message: "is a directory"))
        }
        var capacity = max(Int(st.st_size), 1 << 16)
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var used = 0
        var probe: UInt8 = 0
        while true {
            if used == capacity {
                // Full: one more byte tells whether the file goes on (it grew,
                // or it is a pipe or device that reports no size).
                let n = Glibc.read(fd, &probe, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if n < 0 {
                        buffer.deallocate()
                        throw FileBytes.ioError(path, "read")
                    }
                    break
                }
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: buffer, byteCount: used)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
                buffer.storeBytes(of: probe, toByteOffset: used, as: UInt8.self)
                used += 1
            }
            let n = Glibc.read(fd, buffer + used, capacity - used)
            if n < 0 {
                if errno == EINTR { continue }
                let error = FileBytes.ioError(path, "read")
                buffer.deallocate()
                throw error
            }
            if n == 0 { break }
            used += n
        }
        self.init(bytes: UnsafeRawBufferPointer(start: buffer, count: used))
    }

    var count: Int { bytes.count }

    deinit {
        if whole != nil { return }  // the whole store frees them
        if isMapped {
            anim_unguard_mapping(bytes.baseAddress!)
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count)
            changedFlag?.deallocate()
            close(descriptor)
        } else {
            UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate()
        }
    }
}
