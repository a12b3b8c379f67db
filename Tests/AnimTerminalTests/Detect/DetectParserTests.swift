import Testing

@testable import AnimTerminal

/// `TerminalReplyParser`: each reply from its exact bytes, whole and split
/// at every byte; keys around replies kept in order; anything malformed or
/// oversized dropped without losing what follows.
struct DetectParserTests {
    typealias S = ReplySamples

    func parse(_ pieces: [[UInt8]]) -> (replies: [TerminalReply], other: [UInt8], held: Bool) {
        var parser = TerminalReplyParser()
        var replies: [TerminalReply] = []
        var other: [UInt8] = []
        for piece in pieces {
            let r = parser.feed(piece)
            replies += r.replies
            other += r.other
        }
        return (replies, other, parser.isHoldingSequence)
    }

    @Test(arguments: ReplySamples.valid.indices)
    func eachReplyFromItsBytes(_ i: Int) {
        let (bytes, reply) = S.valid[i]
        let r = parse([bytes])
        #expect(r.replies == [reply])
        #expect(r.other.isEmpty)
        #expect(!r.held)
    }

    @Test(arguments: ReplySamples.valid.indices)
    func eachReplySplitAtEveryPosition(_ i: Int) {
        let (bytes, reply) = S.valid[i]
        for cut in 1..<bytes.count {
            let r = parse([Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(r.replies == [reply], "cut at \(cut)")
            #expect(r.other.isEmpty, "cut at \(cut)")
        }
        // And one byte per feed.
        let r = parse(bytes.map { [$0] })
        #expect(r.replies == [reply] && r.other.isEmpty)
    }

    @Test func keysBetweenRepliesKeptInOrder() {
        let keys = S.keys
        var stream: [UInt8] = []
        var expectedOther: [UInt8] = []
        var expectedReplies: [TerminalReply] = []
        for (k, key) in keys.enumerated() {
            stream += key
            expectedOther += key
            let sample = S.valid[k % S.valid.count]
            stream += sample.bytes
            expectedReplies.append(sample.reply)
        }
        let whole = parse([stream])
        #expect(whole.replies == expectedReplies)
        #expect(whole.other == expectedOther)
        // Split everywhere in threes: the same.
        let pieces = stride(from: 0, to: stream.count, by: 3).map { Array(stream[$0..<min($0 + 3, stream.count)]) }
        let split = parse(pieces)
        #expect(split.replies == expectedReplies)
        #expect(split.other == expectedOther)
    }

    @Test func arrowsAreKeysNotReplies() {
        let r = parse([S.csi("C") + S.csi("D") + S.csi("A") + S.csi("1;2R")])
        #expect(r.replies.isEmpty)
        #expect(r.other == S.csi("C") + S.csi("D") + S.csi("A") + S.csi("1;2R"))
    }

    @Test(arguments: ReplySamples.malformed.indices)
    func malformedDroppedAndWhatFollowsKept(_ i: Int) {
        let bad = S.malformed[i]
        let r = parse([Array("a".utf8) + bad + Array("q".utf8) + S.csi("6;19;8t") + S.csi("C")])
        #expect(r.replies == [.cellPixels(width: 8, height: 19)])
        #expect(r.other == Array("aq".utf8) + S.csi("C"))
    }

    @Test func loneEscapeIsHeldUntilTheNextFeedOrFlush() {
        var parser = TerminalReplyParser()
        #expect(parser.feed([0x1B]).other.isEmpty)
        #expect(parser.isHoldingSequence)
        #expect(parser.flush() == [0x1B])
        #expect(!parser.isHoldingSequence)
        // Held, then completed by the next read into a reply…
        #expect(parser.feed(Array("x".utf8) + [0x1B]).other == Array("x".utf8))
        let r = parser.feed(Array("[?62;4c".utf8))
        #expect(r.replies == [.primaryAttributes([62, 4])] && r.other.isEmpty)
        // …or into a key: ESC then q is Alt-q, both bytes kept.
        _ = parser.feed([0x1B])
        #expect(parser.feed(Array("q".utf8)).other == [0x1B, UInt8(ascii: "q")])
        // Two ESCs: the first is the Esc key at once.
        #expect(parser.feed([0x1B, 0x1B]).other == [0x1B])
        #expect(parser.flush() == [0x1B])
        // ESC [ cut short comes out as typed; a reply cut short is dropped.
        _ = parser.feed([0x1B, UInt8(ascii: "[")])
        #expect(parser.flush() == [0x1B, UInt8(ascii: "[")])
        _ = parser.feed(S.csi("?62;4"))
        #expect(parser.flush().isEmpty)
        _ = parser.feed([0x1B, UInt8(ascii: "_")])
        #expect(parser.flush() == [0x1B, UInt8(ascii: "_")])
    }

    @Test func altKeysThatLookLikeStringIntroducers() {
        // ESC P q is Alt-P then q, not a DCS: DCS replies start 0, 1 or >.
        let r = parse([[0x1B, UInt8(ascii: "P"), UInt8(ascii: "q"), 0x1B, UInt8(ascii: "_"), UInt8(ascii: "x")]])
        #expect(r.replies.isEmpty)
        #expect(r.other == [0x1B, UInt8(ascii: "P"), UInt8(ascii: "q"), 0x1B, UInt8(ascii: "_"), UInt8(ascii: "x")])
    }

    @Test func oversizedStringIsAbandonedWithBoundedMemory() {
        var parser = TerminalReplyParser()
        _ = parser.feed(Array("\u{1B}_Gi=31;".utf8))
        for _ in 0..<256 {  // 1 MiB with no terminator
            let r = parser.feed([UInt8](repeating: UInt8(ascii: "A"), count: 4096))
            #expect(r.replies.isEmpty && r.other.isEmpty)
            #expect(parser.buffer.count <= TerminalReplyParser.maxStringBytes)
        }
        // The terminator ends the skipped string; what follows is read again.
        let r = parser.feed([0x1B, UInt8(ascii: "\\"), UInt8(ascii: "q")] + S.csi("?62c"))
        #expect(r.other == Array("q".utf8))
        #expect(r.replies == [.primaryAttributes([62])])
        // A string exactly at the bound is still a reply.
        let message = String(repeating: "E", count: TerminalReplyParser.maxStringBytes - 7)
        let atBound = parse([S.apc("Gi=31;" + message)])
        #expect(atBound.replies == [.kittyGraphics(id: 31, message: message)])
    }

    @Test func escapeInsideASequenceStartsANewOne() {
        // A DCS, an APC and a CSI each cut by the next reply's ESC.
        let stream =
            Array("\u{1B}P1+r5".utf8) + S.csi("?62c") + Array("\u{1B}_Gi=3".utf8) + S.apc("Gi=31;OK")
            + Array("\u{1B}[6;1".utf8) + S.csi("6;19;8t")
        let r = parse([stream])
        #expect(
            r.replies == [.primaryAttributes([62]), .kittyGraphics(id: 31, message: "OK"), .cellPixels(width: 8, height: 19)])
        #expect(r.other.isEmpty)
    }

    @Test func cancelAndControlsInsideSequences() {
        // CAN cancels; a C0 control inside a CSI ends it and is kept (Ctrl-C).
        let r = parse([Array("\u{1B}[?62".utf8) + [0x18] + Array("a\u{1B}[?6".utf8) + [0x03] + Array("2cb".utf8)])
        #expect(r.replies.isEmpty)
        #expect(r.other == Array("a".utf8) + [0x03] + Array("2cb".utf8))
    }
}
