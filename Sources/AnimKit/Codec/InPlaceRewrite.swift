/// Rewrites an output in place, front to back: old bytes are taken
/// (`take`), new ones put (`put`) at a write position that may run ahead of
/// what was taken. Old bytes a write would cover are read into memory
/// first, so memory holds only the distance the output has grown by, plus a
/// read chunk. Parts that do not change are skipped over (`copy`).
final class InPlaceRewrite {
    private let sink: OutputSink
    /// The old output's size.
    private let end: Int
    /// Old bytes read, from `pulledStart`; `head` is the next to take.
    private var pulled: [UInt8] = []
    private var pulledStart = 0, head = 0
    /// Where the next new byte goes.
    private(set) var written = 0

    init(_ sink: OutputSink) {
        self.sink = sink
        end = sink.offset
    }

    /// The old offset of the next byte `take` returns.
    var position: Int { pulledStart + head }

    var atEnd: Bool { position >= end }

    /// The next `count` old bytes.
    func take(_ count: Int) throws -> [UInt8] {
        guard position + count <= end else {
            throw AnimError(file: sink.name, offset: position, EncodingProblem.outputEndsEarly)
        }
        try pull(upTo: position + count, chunk: 1 << 16)
        defer {
            head += count
            compact()
        }
        return Array(pulled[head..<(head + count)])
    }

    /// Writes `bytes` at the write position; nothing is written when they
    /// are old bytes taken from `unchangedFrom` and the output has not
    /// moved.
    func put(_ bytes: [UInt8], unchangedFrom old: Int? = nil) throws {
        if let old, old == written {
            written += bytes.count
            return
        }
        try pull(upTo: min(end, written + bytes.count), chunk: 0)
        try sink.rewrite(bytes, at: written)
        written += bytes.count
    }

    /// Takes `count` old bytes and puts them back (see `put`).
    @discardableResult
    func copy(_ count: Int) throws -> [UInt8] {
        let from = position
        let bytes = try take(count)
        try put(bytes, unchangedFrom: from)
        return bytes
    }

    /// Cuts the output after what was put.
    func finish() throws {
        if written < sink.offset { try sink.truncate(to: written) }
    }

    private func pull(upTo limit: Int, chunk: Int) throws {
        let have = pulledStart + pulled.count
        guard have < limit else { return }
        let count = min(end, max(limit, have + chunk)) - have
        guard let bytes = sink.read(at: have, count: count), bytes.count == count else {
            throw FileBytes.ioError(sink.name, "read back")
        }
        pulled.append(contentsOf: bytes)
    }

    private func compact() {
        guard head >= 1 << 16 else { return }
        pulled.removeFirst(head)
        pulledStart += head
        head = 0
    }
}
