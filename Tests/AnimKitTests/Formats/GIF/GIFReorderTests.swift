import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// The GIF writer's last pass (`GIFReorder`) and what it stands on: the
/// LZW encoder, the palette order, rewriting an output in place.
struct GIFReorderTests {
    // MARK: LZW

    /// Indices of `count` pixels from an alphabet of `symbols`, in runs.
    static func indices(_ count: Int, symbols: Int, runs: Int, seed: UInt64) -> [UInt8] {
        var rng = RandomAccessTests.SplitMix(state: seed)
        var out: [UInt8] = []
        while out.count < count {
            let v = UInt8(rng.next() % UInt64(symbols))
            out += repeatElement(v, count: min(count - out.count, 1 + Int(rng.next() % UInt64(runs))))
        }
        return out
    }

    /// Encoded data decodes back (the decoder's own LZW), its size is what
    /// `size` says, and it restarts its table: streams of several table fills.
    @Test(arguments: [(1, 2, 1), (5000, 2, 3), (300_000, 16, 4), (200_000, 256, 1), (70_000, 200, 6)])
    func lzwRoundTrips(_ count: Int, _ symbols: Int, _ runs: Int) throws {
        let input = Self.indices(count, symbols: symbols, runs: runs, seed: UInt64(count))
        let bits = GIFEncoder.bits(Int(input.max()!))
        let encoded = input.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: bits) }
        #expect(Int(encoded[0]) == max(bits, 2))
        #expect(encoded.count - 1 == input.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: bits) })
        var decoded = [UInt8](repeating: 0, count: count)
        let valid = encoded.withUnsafeBytes { raw in
            decoded.withUnsafeMutableBufferPointer {
                GIFLZWDecoder.decode(raw, offset: 0, end: raw.count, into: $0.baseAddress!, count: count)
            }
        }
        #expect(valid == count && decoded == input)
    }

    /// The same codes as giflib: a frame written by giflib has the size
    /// the estimate gives (the writer chooses between codings by it).
    @Test func lzwSizeMatchesGiflib() throws {
        let input = Self.indices(120_000, symbols: 60, runs: 5, seed: 9)
        var image = RGBAImage(width: 400, height: 300)
        var colors: [[UInt8]] = []
        for c in 0..<60 { colors.append([UInt8(c * 4), UInt8(255 - c * 3), UInt8(c * 7 % 256), 255]) }
        for (i, v) in input.enumerated() { image.pixels.replaceSubrange((i * 4)..<(i * 4 + 4), with: colors[Int(v)]) }
        let bytes = try GIFWriterTests.encode([(image, .milliseconds(100))])
        let images = Self.images(bytes)
        #expect(images.count == 1)
        // Frame 0's indices are a relabelling of `input`: LZW sizes do not change with labels.
        let expected = input.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: Int(images[0].codeSize)) }
        #expect(images[0].dataBytes == expected)
    }

    // MARK: palette order

    /// Colours every small frame needs come first; colours only frame 0
    /// needs go after them.
    @Test func paletteOrderPutsSharedColoursFirst() {
        var big = GIFIndexSet()
        var small = GIFIndexSet()
        for i in 1...100 { big.insert(i) }
        for i in [90, 95, 100] { small.insert(i) }
        let positions = GIFPaletteOrder.positions(
            first: 1, count: 100, needs: [big, small, small, small],
            weights: [1, 1, 1, 1])
        #expect(Set([positions[89], positions[94], positions[99]]) == [1, 2, 3])
        #expect(Set(positions) == Set(1...100))
    }

    /// A frame's weight grows with its size and stops growing once its
    /// codes are past the widths that differ.
    @Test func weightsGrowWithSizeThenSaturate() {
        let w = [10, 100, 400, 4000, 40000].map { GIFPaletteOrder.weight(bytes: $0) }
        #expect(w[0] > 0 && w[0] < w[1] && w[1] < w[2])
        #expect(w[3] == w[4])
    }

    // MARK: rewriting in place

    /// Writes that outgrow what was read keep the bytes still to read.
    @Test(arguments: [false, true])
    func rewritingInPlaceKeepsUnreadBytes(_ onDisk: Bool) throws {
        let path = "/tmp/anim-inplace-\(getpid())-\(onDisk).bin"
        let sink = onDisk ? try OutputSink(path: path) : OutputSink(memoryNamed: "test")
        defer {
            sink.abort()
            unlink(path)
        }
        let old = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try sink.write(old)
        let io = InPlaceRewrite(sink)
        var expected: [UInt8] = []
        // Grow by 90,000 bytes, copy 50,000, shrink by 140,000, copy the last 10,000.
        let a = try io.take(10_000)
        let grown = a + a + [UInt8](repeating: 1, count: 70_000)
        try io.put(grown)
        expected += grown
        expected += try io.copy(50_000)
        _ = try io.take(130_000)
        try io.put([9, 9])
        expected += [9, 9]
        expected += try io.copy(10_000)
        #expect(io.atEnd)
        try io.finish()
        #expect(sink.offset == expected.count)
        #expect(sink.read(at: 0, count: sink.offset) == expected)
        #expect(expected[0..<10_000] == old[0..<10_000] && expected[90_000..<140_000] == old[10_000..<60_000])
        #expect(expected.suffix(10_000) == old.suffix(10_000))
    }

    // MARK: the pass

    /// Frame 0 with 200 colours; later frames redraw 3 that frame 0 uses
    /// least, so the table made from frame 0 puts them last. Reordered,
    /// the later frames use indices 1–3 (2-bit codes) of the global table;
    /// the pixels are unchanged. A write-only descriptor cannot be read
    /// back: the file is left as written, where those frames need compact
    /// local tables (12 bytes each) to get 2-bit codes, and decodes the same.
    @Test func laterFramesGetTheFirstIndices() throws {
        let (w, h) = (40, 30)
        var colors: [[UInt8]] = []
        for c in 0..<200 { colors.append([UInt8(c), UInt8(255 - c), UInt8(c * 5 % 256), 255]) }
        var canvas = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            // Colours 197–199 appear once each, the rest at least 5 times.
            let c = i < 3 ? 197 + i : (i * 7) % 197
            canvas.replaceSubrange((i * 4)..<(i * 4 + 4), with: colors[c])
        }
        var frames: [GIFWriterTests.Frame] = [(RGBAImage(width: w, height: h, trusting: canvas), .milliseconds(50))]
        for t in 1..<6 {
            for y in 5..<15 {
                for x in 5..<25 {
                    let i = (y * w + x) * 4
                    canvas.replaceSubrange(i..<(i + 4), with: colors[197 + (x + y + t) % 3])
                }
            }
            frames.append((RGBAImage(width: w, height: h, trusting: canvas), .milliseconds(50)))
        }
        let reordered = try GIFWriterTests.encode(frames)
        let path = "/tmp/anim-reorder-\(getpid()).gif"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let out = try ImageDestination(fileDescriptor: fd, format: .gif)
        for f in frames { try out.add(f.image, duration: f.duration) }
        try out.finish()
        close(fd)
        let asWritten = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))

        let a = Self.images(reordered)
        let b = Self.images(asWritten)
        #expect(a.count == 6 && b.count == 6)
        #expect(a.dropFirst().allSatisfy { $0.codeSize == 2 && !$0.local }, "\(a)")
        #expect(b.dropFirst().allSatisfy { $0.codeSize == 2 && $0.local }, "\(b)")
        #expect(reordered.count == asWritten.count - 5 * 12)
        for bytes in [reordered, asWritten] {
            let source = try GIFWriterTests.decode(bytes)
            for i in 0..<frames.count { #expect(try source.frame(at: i) == frames[i].image, "frame \(i)") }
        }
    }

    /// Image records of a GIF: LZW minimum code size, local table or not,
    /// and the LZW data's bytes (sub-blocks with their lengths and terminator).
    static func images(_ d: [UInt8]) -> [(codeSize: UInt8, local: Bool, dataBytes: Int)] {
        var out: [(UInt8, Bool, Int)] = []
        var i = 13 + (d[10] & 0x80 != 0 ? 3 * (2 << Int(d[10] & 7)) : 0)
        func skipBlocks() {
            while d[i] != 0 { i += 1 + Int(d[i]) }
            i += 1
        }
        while i < d.count {
            switch d[i] {
            case 0x21:
                i += 2
                skipBlocks()
            case 0x2C:
                let packed = d[i + 9]
                i += 10 + (packed & 0x80 != 0 ? 3 * (2 << Int(packed & 7)) : 0)
                let size = d[i]
                i += 1
                let start = i
                skipBlocks()
                out.append((size, packed & 0x80 != 0, i - start))
            default: return out
            }
        }
        return out
    }
}
