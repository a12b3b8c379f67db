import AnimTestSupport
import Testing

@testable import AnimKit

/// Truncated, corrupted, empty and oversized input: always frames or a clear
/// `AnimError`, never a crash, and the complete frames are still returned.
struct BadInputTests {
    static let files = Fixtures.sample([])

    /// Offsets where a block or chunk starts, per format.
    static func boundaries(_ b: [UInt8]) -> [Int] {
        var out: [Int] = []
        if b.starts(with: [0x89, 0x50]) {
            var p = 8
            while p + 12 <= b.count {
                out.append(p)
                p += 12 + (Int(b[p]) << 24 | Int(b[p + 1]) << 16 | Int(b[p + 2]) << 8 | Int(b[p + 3]))
            }
        } else if b.starts(with: Array("RIFF".utf8)) {
            var p = 12
            while p + 8 <= b.count {
                out.append(p)
                let size = Int(b[p + 4]) | Int(b[p + 5]) << 8 | Int(b[p + 6]) << 16 | Int(b[p + 7]) << 24
                // ANMF chunks nest the frame's chunks after 16 bytes of header.
                p += String(decoding: b[p..<(p + 4)], as: UTF8.self) == "ANMF" ? 24 : 8 + size + (size & 1)
            }
        } else {
            out = GIFBlocks.starts(b)
        }
        return out
    }

    /// Opens and decodes `bytes`; returns the frames and whether an error was
    /// reported (at open, in the index, or while decoding).
    static func decode(_ bytes: [UInt8], _ name: String) -> (frames: [RGBAImage], failed: Bool) {
        do {
            let source = try ImageSource(data: bytes, name: name)
            let (frames, error) = allFrames(source)
            if let error { #expect(error is AnimError, "\(name): \(error) is not an AnimError") }
            return (frames, error != nil || source.indexError != nil)
        } catch {
            #expect(error is AnimError, "\(name): \(error) is not an AnimError")
            let text = String(describing: error)
            #expect(text.contains(name), "\(name): the message does not name the file: \(text)")
            return ([], true)
        }
    }

    @Test(arguments: files)
    func truncationKeepsCompleteFrames(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let whole = Self.decode(bytes, file)
        try #require(!whole.failed && !whole.frames.isEmpty, "\(file) must decode whole")
        var rng = RandomAccessTests.SplitMix(state: UInt64(bytes.count))
        var cuts = Self.boundaries(bytes) + Self.boundaries(bytes).map { $0 + 3 }
        for _ in 0..<24 { cuts.append(Int.random(in: 0..<bytes.count, using: &rng)) }
        for cut in Set(cuts) where cut < bytes.count {
            let name = "\(file)[0..<\(cut)]"
            let part = Self.decode(Array(bytes[0..<cut]), name)
            #expect(part.failed, "\(name): truncation was not reported")
            #expect(part.frames.count <= whole.frames.count, "\(name): more frames than the whole file")
            // Every frame but the last returned is complete and exact (a GIF's
            // last frame may hold the pixels decoded so far).
            for i in 0..<max(0, part.frames.count - 1) {
                #expect(part.frames[i] == whole.frames[i], "\(name): frame \(i) differs")
            }
        }
    }

    @Test(arguments: files)
    func flippedBytesNeverCrash(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        var rng = RandomAccessTests.SplitMix(state: 7 &+ UInt64(bytes.count))
        for n in 0..<40 {
            var copy = bytes
            let flips = 1 + n % 3
            for _ in 0..<flips {
                let at = Int.random(in: 0..<copy.count, using: &rng)
                copy[at] ^= UInt8.random(in: 1...255, using: &rng)
            }
            _ = Self.decode(copy, "\(file)#flip\(n)")
        }
    }

    @Test func truncatedGIFKeepsThePixelsDecodedSoFar() throws {
        let bytes = try Fixtures.bytes("extra/long.gif")
        let whole = try Fixtures.source("extra/long.gif").frame(at: 0)
        // Cut the first image's LZW data in the middle.
        let start = GIFBlocks.starts(bytes).first { bytes[$0] == 0x2C }!
        let end = GIFBlocks.starts(bytes).first { $0 > start }!
        let source = try ImageSource(data: Array(bytes[0..<((start + end) / 2)]), name: "cut.gif")
        #expect(source.frameCount == 1)
        if source.indexError?.code == .truncated {
        } else {
            Issue.record("truncation not reported: \(String(describing: source.indexError))")
        }
        let part = try source.frame(at: 0)
        let rowBytes = whole.width * 4
        let decodedRows = (0..<whole.height).filter { y in
            part.pixels[(y * rowBytes)..<((y + 1) * rowBytes)] == whole.pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
        }
        #expect(decodedRows.count >= 4 && decodedRows.count < whole.height, "rows kept: \(decodedRows.count)")
        #expect(part.pixel(x: 0, y: whole.height - 1).a == 0, "rows past the cut stay transparent")
    }

    @Test func truncatedKeyframeIsTheSameWhateverWasReadBefore() throws {
        // The last, partial frame of a cut GIF must not show what an earlier
        // read left on the canvas: rows not reached are transparent.
        let bytes = try Fixtures.bytes("extra/long.gif")
        let images = GIFBlocks.starts(bytes).filter { bytes[$0] == 0x2C }
        let whole = try Fixtures.source("extra/long.gif")
        let k = try #require(
            (60..<whole.frameCount).first {
                whole.frames[$0].isKeyframe && whole.frames[$0].rect == Rect(x: 0, y: 0, width: 64, height: 48)
            })
        let cut = Array(bytes[0..<(images[k] + 400)])
        let inOrder = try ImageSource(data: cut, name: "cut.gif", options: DecodingOptions(decodeAhead: 0))
        let last = inOrder.frameCount - 1
        for i in 0..<last { _ = try inOrder.frame(at: i) }
        let direct = try ImageSource(data: cut, name: "cut.gif")
        #expect(try inOrder.frame(at: last) == direct.frame(at: last))
        #expect(try direct.frame(at: last).pixel(x: 0, y: 47).a == 0)
    }

    @Test func emptyAndUnknownInput() {
        #expect(throws: AnimError(file: "e", offset: 0, CommonProblem.emptyFile)) {
            try ImageSource(data: [], name: "e")
        }
        #expect(throws: AnimError(file: "t.txt", CommonProblem.unknownFormat)) {
            try ImageSource(data: Array("hello, world".utf8), name: "t.txt")
        }
    }

    @Test func hugeGIFCanvasIsRefusedBeforeAllocation() throws {
        let bytes = try Fixtures.bytes("gif-suite/max-size.gif")
        #expect(
            throws: AnimError(file: "max-size.gif", LimitExceeded(.canvasPixels, value: 65535 * 65535, maximum: 1 << 27))
        ) {
            try ImageSource(data: bytes, name: "max-size.gif")
        }
    }

    @Test func zeroAndHugePNGDimensions() {
        for (w, h) in [(0, 10), (10, 0), (100_000, 100_000), (0x7FFF_FFFF, 1)] {
            let png = TinyFiles.png(width: w, height: h)
            #expect(throws: AnimError.self, "\(w)x\(h)") { try ImageSource(data: png, name: "p.png") }
        }
    }

    @Test func hugeWebPCanvasIsRefused() {
        let webp = TinyFiles.animatedWebPHeader(width: 16384, height: 16384)
        #expect(
            throws: AnimError(file: "w.webp", LimitExceeded(.canvasPixels, value: 16384 * 16384, maximum: 1 << 27))
        ) {
            try ImageSource(data: webp, name: "w.webp")
        }
    }

    @Test func lowerLimitsApply() throws {
        var limits = DecodingLimits()
        limits.maxFrameCount = 10
        #expect(throws: AnimError(file: "extra/long.gif", LimitExceeded(.frameCount, value: 11, maximum: 10))) {
            try Fixtures.source("extra/long.gif", options: DecodingOptions(limits: limits))
        }
        limits = DecodingLimits()
        limits.maxDecodedBytes = 64 * 48 * 4 * 10
        #expect(throws: AnimError.self) {
            try Fixtures.source("extra/long.gif", options: DecodingOptions(limits: limits))
        }
    }
}

/// Block starts of a GIF (images and extensions), for truncation tests.
enum GIFBlocks {
    static func starts(_ b: [UInt8]) -> [Int] {
        guard b.count > 13 else { return [] }
        var p = 13
        if b[10] & 0x80 != 0 { p += 3 << (Int(b[10] & 7) + 1) }
        var out: [Int] = []
        while p < b.count {
            out.append(p)
            switch b[p] {
            case 0x21: p += 2
            case 0x2C:
                guard p + 10 <= b.count else { return out }
                let f = b[p + 9]
                p += 10 + (f & 0x80 != 0 ? 3 << (Int(f & 7) + 1) : 0) + 1
            default: return out
            }
            while p < b.count && b[p] != 0 { p += Int(b[p]) + 1 }
            p += 1
        }
        return out
    }
}

/// Tiny hand-made headers for limit tests.
enum TinyFiles {
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBytes { PNGBridge.crc32($0) }
        return be32(data.count) + body + be32(Int(crc))
    }

    /// A PNG with the given IHDR size and a 1-byte IDAT.
    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    /// The first bytes of an animated WebP: RIFF/WEBP, VP8X (animation
    /// flag) and ANIM, the rest of the file missing.
    static func animatedWebPHeader(width: Int, height: Int) -> [UInt8] {
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [0x02, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3)
        let anim = Array("ANIM".utf8) + le(6, 4) + [0, 0, 0, 0, 0, 0]
        let body = Array("WEBP".utf8) + vp8x + anim
        return Array("RIFF".utf8) + le(body.count + 4096, 4) + body
    }
}
