import Testing

@testable import AnimKit

/// The GIF container parser on its own, on files built byte by byte: where
/// each image is, its Graphic Control Extension, the loop block, and how a
/// file cut inside an image ends the walk. No LZW data is decoded.
struct GIFParserTests {
    /// Header with a 2-colour global table, a NETSCAPE2.0 loop of 3, then
    /// two images: a 2×1 at (1,0) with a GCE (dispose 2, 7 cs, transparent
    /// 1), and an interlaced 3×2 at (0,1) with a 4-colour local table.
    static let file: [UInt8] = {
        var b = Array("GIF89a".utf8) + [4, 0, 3, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        b += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 3, 0, 0]
        b += [0x21, 0xF9, 4, 0b0000_1001, 7, 0, 1, 0]  // disposal 2, transparent flag, 7 cs, index 1
        b += [0x2C, 1, 0, 0, 0, 2, 0, 1, 0, 0] + [2, 2, 0x4C, 0x01, 0]
        b += [0x2C, 0, 0, 1, 0, 3, 0, 2, 0, 0x80 | 0x40 | 1] + [UInt8](repeating: 9, count: 12)
        b += [2, 3, 0x84, 0x8F, 0x05, 0]
        return b + [0x3B]
    }()

    func parse(_ bytes: [UInt8]) throws -> GIFParser.Result {
        try bytes.withUnsafeBytes { try GIFParser(bytes: $0, file: "t.gif", limits: DecodingLimits()).parse() }
    }

    @Test func recordsEveryImageAndItsControlBlock() throws {
        let r = try parse(Self.file)
        #expect(r.width == 4 && r.height == 3 && r.headerLength == 19 && r.loopCount == 3 && r.error == nil)
        try #require(r.images.count == 2)
        let a = r.images[0]
        #expect((a.rect.x, a.rect.y, a.rect.width, a.rect.height) == (1, 0, 2, 1) && !a.interlaced)
        #expect(a.disposal == 2 && a.dispose == .background && a.delay == 7 && a.transparentIndex == 1 && a.hasGCE)
        #expect(a.palette.offset == 13 && a.palette.count == 2, "the global table")
        #expect(a.descriptorOffset == 46 && a.dataOffset == 56 && a.dataEnd == 61 && a.complete)
        let b = r.images[1]
        #expect((b.rect.x, b.rect.y, b.rect.width, b.rect.height) == (0, 1, 3, 2) && b.interlaced)
        #expect(!b.hasGCE && b.delay == 0 && b.transparentIndex == nil && b.dispose == .none)
        #expect(b.palette.offset == 71 && b.palette.count == 4, "its local table")
        #expect(b.dataEnd == Self.file.count - 1)
    }

    @Test func aFileCutInsideAnImageMarksItIncomplete() throws {
        let cut = Array(Self.file.prefix(Self.file.count - 4))
        let r = try parse(cut)
        #expect(r.images.count == 2 && r.images[0].complete && !r.images[1].complete)
        #expect(r.images[1].dataEnd == cut.count)
        guard r.error?.code == .truncated else {
            Issue.record("expected a truncation error, got \(String(describing: r.error))")
            return
        }
    }

    @Test func aCutHeaderIsAnError() {
        #expect(throws: AnimError.self) { try parse(Array(Self.file.prefix(9))) }
        #expect(throws: AnimError.self) { try parse(Array(Self.file.prefix(15))) }  // inside the global table
    }

    @Test func theCanvasLimitIsCheckedBeforeTheImages() {
        var big = Self.file
        big[6] = 0xFF
        big[7] = 0xFF
        big[8] = 0xFF
        big[9] = 0xFF
        var limits = DecodingLimits()
        limits.maxCanvasPixels = 1 << 20
        #expect(throws: AnimError.self) {
            try big.withUnsafeBytes { try GIFParser(bytes: $0, file: "t.gif", limits: limits).parse() }
        }
    }
}
