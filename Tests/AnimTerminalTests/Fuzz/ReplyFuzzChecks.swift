// What the reply fuzzers do with one input, shared by the libFuzzer target
// (Tools/fuzz/FuzzReplies.swift, compiled with the Detect sources as one
// module) and DetectFuzzTests, which runs 100,000 seeded inputs.
#if canImport(AnimTerminal)
    @testable import AnimTerminal
#endif
#if canImport(AnimTestSupport)
    import AnimTestSupport
#endif

enum ReplyFuzzChecks {
    /// Arbitrary bytes through `TerminalReplyParser`: in random chunks
    /// (the result must not depend on the chunking), then with a valid
    /// reply embedded between two halves of it (the reply must be found).
    /// Every violation is a `fatalError`, so libFuzzer reports it.
    static func parse(_ bytes: [UInt8]) {
        var rng = FuzzRandom(bytes)
        let whole = run(bytes, chunks: [bytes.count])
        let chunked = run(bytes, chunks: chunking(bytes.count, &rng))
        check(whole == chunked, "chunking changed the result")
        check(isSubsequence(whole.other, of: bytes), "other bytes that were not input")
        for reply in whole.replies { checkBounded(reply) }
        if !bytes.contains(0x1B) { check(whole.other == bytes && whole.replies.isEmpty, "plain bytes not passed through") }

        let sample = ReplySamples.valid[Int(rng.next() % UInt64(ReplySamples.valid.count))]
        let cut = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count + 1))
        let embedded = Array(bytes[..<cut]) + sample.bytes + Array(bytes[cut...])
        let found = run(embedded, chunks: chunking(embedded.count, &rng))
        check(found.replies.contains(sample.reply), "a valid reply after garbage was lost: \(sample.reply)")
    }

    struct Result: Equatable {
        var replies: [TerminalReply] = []
        var other: [UInt8] = []
    }

    /// Feeds `bytes` in pieces of the given sizes, then flushes; checks the
    /// parser's own memory after every piece.
    static func run(_ bytes: [UInt8], chunks: [Int]) -> Result {
        var parser = TerminalReplyParser()
        var result = Result()
        var offset = 0
        for size in chunks where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            let (replies, other) = parser.feed(Array(bytes[offset..<end]))
            result.replies += replies
            result.other += other
            check(parser.buffer.count <= TerminalReplyParser.maxStringBytes, "parser holds \(parser.buffer.count) bytes")
            offset = end
        }
        if offset < bytes.count {
            let (replies, other) = parser.feed(Array(bytes[offset...]))
            result.replies += replies
            result.other += other
        }
        result.other += parser.flush()
        check(!parser.isHoldingSequence, "flush left a sequence held")
        return result
    }

    /// Random piece sizes, from single bytes up, summing to at least `count`.
    static func chunking(_ count: Int, _ rng: inout FuzzRandom) -> [Int] {
        var sizes: [Int] = []
        var total = 0
        while total < count {
            let size = rng.next() % 4 == 0 ? 1 : 1 + Int(rng.next() % 64)
            sizes.append(size)
            total += size
        }
        return sizes
    }

    static func isSubsequence(_ a: [UInt8], of b: [UInt8]) -> Bool {
        var j = 0
        for x in a {
            while j < b.count && b[j] != x { j += 1 }
            if j == b.count { return false }
            j += 1
        }
        return true
    }

    /// Values within the parser's bounds.
    static func checkBounded(_ reply: TerminalReply) {
        let max = TerminalReplyParser.maxNumber
        func ok(_ s: String) -> Bool {
            s.utf8.count <= TerminalReplyParser.maxStringBytes && s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
        }
        switch reply {
        case .primaryAttributes(let list):
            check(!list.isEmpty && list.count <= TerminalReplyParser.maxParameters && list.allSatisfy { $0 <= max }, "\(reply)")
        case .kittyGraphics(let id, let message):
            check((id ?? 0) <= Int(UInt32.max) && ok(message), "\(reply)")
        case .textAreaPixels(let a, let b), .cellPixels(let a, let b), .textAreaCells(let a, let b), .modeReport(let a, let b),
            .cursorPosition(let a, let b):
            check(a <= max && b <= max && a >= 0 && b >= 0, "\(reply)")
        case .graphicsAttribute(let item, let status, let values):
            check(item <= max && status <= max && values.count <= 30 && values.allSatisfy { $0 <= max }, "\(reply)")
        case .termcap(let name, let value):
            check(ok(name) && (value.map(ok) ?? true), "\(reply)")
        case .statusString(_, let text), .terminalVersion(let text):
            check(ok(text), "\(reply)")
        }
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("ReplyFuzzChecks: " + message()) }
    }
}
