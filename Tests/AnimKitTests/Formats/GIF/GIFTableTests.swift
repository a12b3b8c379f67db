import AnimTestSupport
import Testing

@testable import AnimKit

/// Two ways the GIF writer saves bytes gifsicle saves: a full global table
/// lends each later frame an entry it does not use for transparency (no
/// local table of 256 entries per frame), and LZW keeps a full code table
/// (clears it later, or never) when that codes the image in fewer bytes.
struct GIFTableTests {
    /// 32×32 opaque frames: frame 0 shows exactly 256 colours; later
    /// frames move a small square drawn in 3 of them, 2 pixels apart
    /// from where it was (unchanged pixels between).
    static func fullTableFrames(_ count: Int) -> [RGBAImage] {
        (0..<count).map { f in
            RGBAImage.drawn(width: 32, height: 32) { x, y in
                let square = f > 0 && (4..<8).contains(y) && (f * 6..<f * 6 + 4).contains(x)
                let c = square ? [10, 20, 30][(x + y) % 3] : (y * 32 + x) % 256
                return (UInt8(c), UInt8(255 - c), UInt8((c * 7) & 0xFF), 255)
            }
        }
    }

    /// At effort 2: frames are never restored to previous (which would
    /// draw the moving square alone, with no transparency to lend).
    static func encode(_ frames: [RGBAImage]) throws -> [UInt8] {
        var o = EncodingOptions()
        o.effort = 2
        return try ImageDestination.encode(frames, as: .gif, options: o, duration: .milliseconds(100))
    }

    @Test func aFullGlobalTableLendsAnUnusedEntryForTransparency() throws {
        let frames = Self.fullTableFrames(5)
        let data = try Self.encode(frames)
        let records = try data.withUnsafeBytes {
            try GIFParser(bytes: $0, file: "t.gif", limits: DecodingLimits()).parse()
        }.images
        #expect(records.count == 5)
        #expect(records.allSatisfy { $0.palette.offset == 13 }, "every frame on the global table")
        #expect(records[0].transparentIndex == nil, "frame 0 uses all 256 entries")
        // Frame 1's rectangle changes everywhere; later ones also restore
        // the square's old place, and leave pixels unchanged.
        let lent = records.dropFirst().compactMap(\.transparentIndex)
        #expect(lent.count >= 3, "\(records.map(\.transparentIndex))")
        #expect(!lent.contains { [10, 20, 30].contains($0) }, "an entry the frames draw: \(lent)")
        let back = try ImageSource(data: data)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        #expect(data.count < 1024 + 5 * 300, "\(data.count) bytes")
    }

    /// 96,000 indices made of 20 random "words" of 64 pixels in random
    /// order: the table learns the words' strings and is full long before
    /// the end; kept, its strings serve on, cleared, they must be learnt
    /// again.
    static func fillThenRepeat() -> [UInt8] {
        var seed: UInt32 = 9
        func random(_ n: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int(seed >> 16) % n
        }
        let words = (0..<20).map { _ in (0..<64).map { _ in UInt8(random(16)) } }
        return (0..<1500).flatMap { _ in words[random(20)] }
    }

    @Test func aFullCodeTableIsKeptWhileItPays() throws {
        let indices = Self.fillThenRepeat()
        let data = indices.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: 4) }
        // The same stream cleared at once, as giflib writes it, is longer:
        // recomputed here with an eager encoder of the test's own.
        let eager = Self.eagerBytes(indices, minimum: 4)
        #expect(data.count - 1 < eager, "\(data.count - 1) bytes deferred, \(eager) eager")
        // Both decoders read it back: anim's own LZW, and the whole file
        // through ImageSource (giflib first).
        var decoded = [UInt8](repeating: 0, count: indices.count)
        let valid = data.withUnsafeBytes { raw in
            decoded.withUnsafeMutableBufferPointer {
                GIFLZWDecoder.decode(raw, offset: 0, end: raw.count, into: $0.baseAddress!, count: $0.count)
            }
        }
        #expect(valid == indices.count && decoded == indices)
        let frame = RGBAImage(width: 100, height: indices.count / 100, trusting: indices.flatMap { [UInt8($0 * 16), 0, 0, 255] })
        let file = try Self.encode([frame])
        #expect(try ImageSource(data: file).frame(at: 0) == frame)
    }

    /// Bytes of giflib's LZW for `indices`: clear as soon as the table is full.
    static func eagerBytes(_ indices: [UInt8], minimum: Int) -> Int {
        let clear = 1 << minimum
        var table: [Int: Int] = [:]
        var next = clear + 2
        var width = minimum + 1
        var bits = width
        var prefix = Int(indices[0])
        for k in indices.dropFirst() {
            if let c = table[prefix << 8 | Int(k)] {
                prefix = c
                continue
            }
            bits += width
            if next < 4095 {
                table[prefix << 8 | Int(k)] = next
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                bits += width
                table = [:]
                next = clear + 2
                width = minimum + 1
            }
            prefix = Int(k)
        }
        bits += 2 * width
        let n = (bits + 7) / 8
        return n + (n + 254) / 255 + 1
    }
}
