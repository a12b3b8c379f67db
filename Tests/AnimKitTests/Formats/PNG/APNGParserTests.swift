import Testing

@testable import AnimKit

/// The APNG chunk parser on its own, on files built chunk by chunk: frame
/// records (rect, delay, disposal, blending, data segments), `num_plays`,
/// and the rules whose breach ends the frames found so far with an error.
struct APNGParserTests {
    typealias T = TinyFiles
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let zlib: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]

    static func fcTL(
        _ seq: Int, _ w: Int, _ h: Int, _ x: Int, _ y: Int, delay: (Int, Int), dispose: UInt8, blend: UInt8
    ) -> [UInt8] {
        T.chunk(
            "fcTL",
            T.be32(seq) + T.be32(w) + T.be32(h) + T.be32(x) + T.be32(y) + [UInt8(delay.0 >> 8), UInt8(delay.0 & 0xFF)]
                + [UInt8(delay.1 >> 8), UInt8(delay.1 & 0xFF)] + [dispose, blend])
    }

    /// 4×2 RGBA, two frames, 5 plays: the default image is frame 0
    /// (1/10 s), then a 2×1 frame at (1,1), delay 3/0 (hundredths),
    /// disposed to background and blended over.
    static func file(secondSequence: Int = 1, secondX: Int = 1, numFrames: Int = 2) -> [UInt8] {
        signature + T.chunk("IHDR", T.be32(4) + T.be32(2) + [8, 6, 0, 0, 0])
            + T.chunk("acTL", T.be32(numFrames) + T.be32(5))
            + fcTL(0, 4, 2, 0, 0, delay: (1, 10), dispose: 0, blend: 0) + T.chunk("IDAT", zlib)
            + fcTL(secondSequence, 2, 1, secondX, 1, delay: (3, 0), dispose: 1, blend: 1)
            + T.chunk("fdAT", T.be32(secondSequence + 1) + zlib) + T.chunk("IEND", [])
    }

    func parse(_ bytes: [UInt8]) throws -> APNGParser.Result {
        try bytes.withUnsafeBytes { try APNGParser(bytes: $0, file: "t.png", limits: DecodingLimits()).parse() }
    }

    @Test func framesAndTheirControlChunks() throws {
        let r = try parse(Self.file())
        #expect(r.isAnimated && r.numPlays == 5 && r.error == nil)
        #expect(r.header.width == 4 && r.header.height == 2 && r.header.colorType == 6 && r.header.hasAlpha)
        try #require(r.frames.count == 2)
        let (a, b) = (r.frames[0], r.frames[1])
        #expect(a.rect == Rect(x: 0, y: 0, width: 4, height: 2) && a.delay == .milliseconds(100))
        #expect(a.dispose == .none && a.blend == .source)
        #expect(b.rect == Rect(x: 1, y: 1, width: 2, height: 1) && b.delay == .milliseconds(30))
        #expect(b.dispose == .background && b.blend == .over)
        #expect(a.segments.count == 1 && a.segments[0].dataLength == Self.zlib.count && a.segments[0].skip == 0)
        #expect(b.segments.count == 1 && b.segments[0].dataLength == Self.zlib.count + 4 && b.segments[0].skip == 4)
    }

    /// `file()` with a third frame after the second.
    static func threeFrames(sequence: Int, x: Int) -> [UInt8] {
        let two = file(numFrames: 3)
        return Array(two.prefix(two.count - 12)) + fcTL(sequence, 1, 1, x, 0, delay: (1, 100), dispose: 0, blend: 0)
            + T.chunk("fdAT", T.be32(sequence + 1) + zlib) + T.chunk("IEND", [])
    }

    @Test func aSequenceGapKeepsTheFramesBefore() throws {
        #expect(try parse(Self.threeFrames(sequence: 3, x: 0)).frames.count == 3, "sequence 3 is right")
        let r = try parse(Self.threeFrames(sequence: 5, x: 0))
        #expect(r.frames.count == 2 && r.error != nil, "\(r.frames.count) frames, \(String(describing: r.error))")
    }

    @Test func aFrameOutsideTheCanvasKeepsTheFramesBefore() throws {
        let r = try parse(Self.threeFrames(sequence: 3, x: 4))  // 4 + 1 > 4
        #expect(r.frames.count == 2 && r.error != nil, "\(r.frames.count) frames, \(String(describing: r.error))")
    }

    /// A broken second fcTL still ends the default image before it: frame
    /// 0 stays, with the error.
    @Test func aBrokenSecondFrameControlKeepsTheDefaultImage() throws {
        for bytes in [Self.file(secondSequence: 3), Self.file(secondX: 3)] {
            let r = try parse(bytes)
            #expect(r.frames.count == 1 && r.frames[0].segments.count == 1 && r.error != nil)
        }
    }

    /// The header, an `acTL` for `frames`, and the default image as frame
    /// 0; then `rest`.
    static func withDefaultImage(frames: Int, _ rest: [UInt8]) -> [UInt8] {
        signature + T.chunk("IHDR", T.be32(4) + T.be32(2) + [8, 6, 0, 0, 0])
            + T.chunk("acTL", T.be32(frames) + T.be32(0))
            + fcTL(0, 4, 2, 0, 0, delay: (1, 10), dispose: 0, blend: 0) + T.chunk("IDAT", zlib) + rest
    }

    static func frame(_ seq: Int, x: Int) -> [UInt8] {
        fcTL(seq, 1, 1, x, 0, delay: (1, 10), dispose: 0, blend: 0) + T.chunk("fdAT", T.be32(seq + 1) + zlib)
    }

    /// An fcTL without data before the next fcTL is skipped and counted
    /// towards `num_frames` (Chromium; `APNGBrowserRuleTests`); at the end
    /// of the file it is an error, the frames before it kept.
    @Test func aFrameWithoutDataIsSkippedUnlessItIsTheLast() throws {
        let empty = Self.fcTL(1, 1, 1, 0, 0, delay: (1, 10), dispose: 0, blend: 0)
        let tail = empty + Self.frame(2, x: 3) + T.chunk("IEND", [])
        let file = Self.withDefaultImage(frames: 3, tail)
        let r = try parse(file)
        #expect(r.frames.count == 2 && r.error == nil, "\(r.frames.count) frames, \(String(describing: r.error))")
        #expect(
            r.warnings.count == 1 && r.warnings[0] as? PNGProblem == .fcTLWithoutData(offset: file.count - tail.count),
            "\(r.warnings)")
        #expect(r.frames.last?.rect == Rect(x: 3, y: 0, width: 1, height: 1))
        let end = Self.fcTL(3, 1, 1, 0, 0, delay: (1, 10), dispose: 0, blend: 0) + T.chunk("IEND", [])
        let e = try parse(Self.withDefaultImage(frames: 3, Self.frame(1, x: 3) + end))
        #expect(e.frames.count == 2 && "\(String(describing: e.error))".contains("frame has no image data"))
    }

    /// Frames after `num_frames` are not shown, with a warning (Chromium).
    @Test func framesBeyondTheCountAreIgnored() throws {
        let head = Self.withDefaultImage(frames: 2, Self.frame(1, x: 3))
        let r = try parse(head + Self.frame(3, x: 2) + T.chunk("IEND", []))
        #expect(r.frames.count == 2 && r.error == nil, "\(r.frames.count) frames, \(String(describing: r.error))")
        #expect(
            r.warnings.map(\.description)
                == ["acTL declares 2 frames: the fcTL at byte \(head.count) and the frames after it are ignored"],
            "\(r.warnings)")
    }

    @Test func aFrameCountThatDisagreesIsAnError() throws {
        let r = try parse(Self.file(numFrames: 3))
        #expect(r.frames.count == 2 && r.error != nil, "\(r.frames.count) frames, \(String(describing: r.error))")
    }

    @Test func aPlainPNGIsOneStillFrame() throws {
        let r = try parse(T.png(width: 3, height: 5))
        #expect(!r.isAnimated && r.error == nil && r.frames.count == 1)
        #expect(r.frames.first?.rect == Rect(x: 0, y: 0, width: 3, height: 5))
    }

    @Test func aFirstChunkOtherThanIHDRIsRefused() {
        #expect(throws: AnimError.self) { try parse(Self.signature + T.chunk("IDAT", Self.zlib)) }
    }
}
