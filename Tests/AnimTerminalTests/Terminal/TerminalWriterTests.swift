import AnimTestSupport
import Testing

@testable import AnimTerminal

/// Where the writer cuts a frame into pieces: before an ESC that starts a
/// sequence, at most `pieceSize` bytes on, never before the second ESC of
/// a doubled one (tmux passthrough) or the ESC of ST; forward to the next
/// such ESC when none lies within the window.
struct TerminalWriterTests {
    /// The cut as the writer made it before it searched with memrchr: a
    /// walk back byte by byte, then forward.
    static func reference(_ b: [UInt8], from start: Int) -> Int {
        let limit = start + TerminalWriter.pieceSize
        guard limit < b.count else { return b.count }
        return b.withUnsafeBufferPointer { p in
            var i = limit
            while i > start + 1 {
                if TerminalWriter.isBoundary(p, i) { return i }
                i -= 1
            }
            i = limit + 1
            while i < b.count {
                if TerminalWriter.isBoundary(p, i) { return i }
                i += 1
            }
            return b.count
        }
    }

    @Test(arguments: 0..<40)
    func cutsWhereTheByteWalkCut(_ seed: Int) {
        var rng = FuzzRandom(UInt64(seed))
        // Long runs of base64-like bytes with sequences, doubled ESCs and STs between.
        var bytes: [UInt8] = []
        while bytes.count < 20000 {
            switch rng.int(5) {
            case 0: bytes += [0x1B, UInt8(ascii: "[")] + Array("12;3H".utf8)
            case 1: bytes += [0x1B, 0x1B]
            case 2: bytes += [0x1B, 0x5C]
            default: bytes += (0..<rng.int(seed % 2 == 0 ? 9000 : 300)).map { _ in UInt8(65 + rng.int(26)) }
            }
        }
        var start = 0
        while start < bytes.count {
            let end = bytes.withUnsafeBufferPointer { TerminalWriter.pieceEnd($0, from: start) }
            #expect(end == Self.reference(bytes, from: start), "seed \(seed), piece from \(start)")
            #expect(end > start)
            #expect(end == bytes.count || (bytes[end] == 0x1B && bytes[end - 1] != 0x1B))
            start = end
        }
    }
}
