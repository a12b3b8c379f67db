import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// anim's LZW decoder against giflib, its oracle, and the textbook decoder
/// (`LZWOracle`, which says why they may differ): on the GIF fixtures, and
/// on streams made here (random images of every code size, then the same
/// streams with bytes changed at random). `fuzz-lzw` does the same on
/// fuzzed input.
struct GIFLZWOracleTests {
    typealias Comparison = LZWOracle.Comparison

    @Test func everyFixtureImageDecodesAsGiflibDecodesIt() throws {
        var result = Comparison()
        let folders = ["gif-suite", "gif-public", "extra", "extra/interlace-cut", "hostile", "metadata", "webp"]
        for name in folders.flatMap({ Fixtures.list($0, ext: "gif") }) {
            LZWOracle.compare(try Fixtures.bytes(name), name: name, into: &result)
        }
        #expect(result.differing == [] && result.stoppedWhereGiflibWentOn == 0)
        // (The fixtures hold several hundred images; giflib gives up on the
        // damaged ones and on gif-suite's max-codes.)
        #expect(result.compared > 300, "\(result.compared) images compared")
        #expect(result.giflibGaveUp > 0 && result.giflibGaveUp < 20, "giflib gave up on \(result.giflibGaveUp)")
    }

    @Test func madeAndDamagedStreamsDecodeAsGiflibDecodesThem() {
        var rng = FuzzRandom(state: 0x6966_6C7A)
        var result = Comparison()
        var damagedCompared = 0
        for round in 0..<400 {
            let bits = 1 + round % 8
            let width = Int.random(in: 1...90, using: &rng)
            let height = Int.random(in: 1...40, using: &rng)
            // Runs of repeated indices and noise, so strings grow long and the
            // table fills and clears on the larger images.
            var indices = [UInt8]()
            while indices.count < width * height {
                let v = UInt8.random(in: 0...UInt8((1 << bits) - 1), using: &rng)
                indices += repeatElement(v, count: Int.random(in: 1...(round % 3 == 0 ? 40 : 3), using: &rng))
            }
            indices = Array(indices.prefix(width * height))
            let data = indices.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: bits) }
            let made = LZWOracle.file(width: width, height: height, bits: bits, data: data)
            var before = result
            LZWOracle.compare(made, name: "made \(round)", into: &result)
            #expect(result.compared == before.compared + 1, "giflib decodes what the encoder made")
            #expect(result.stoppedWhereGiflibWentOn == before.stoppedWhereGiflibWentOn)
            // The same stream with one to four bytes of its data changed.
            var damaged = made
            let header = made.count - data.count - 1
            for _ in 0...Int.random(in: 0...3, using: &rng) {
                damaged[Int.random(in: (header + 1)..<(made.count - 1), using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            before = result
            LZWOracle.compare(damaged, name: "damaged \(round)", into: &result)
            damagedCompared += result.compared - before.compared
        }
        #expect(result.differing == [])
        #expect(damagedCompared > 50, "giflib decoded \(damagedCompared) of the damaged streams")
        #expect(result.stoppedWhereGiflibWentOn < damagedCompared)
    }
}

extension GIFLZWOracleTests {
    /// An image far larger than its screen (2000×1000 on 4×4, plain and
    /// interlaced) is decoded row by row, in one row of memory, and the
    /// screen shows the same pixels the textbook decoder gives.
    @Test(arguments: [false, true])
    func anImageFarPastTheScreenDecodesRowByRow(_ interlaced: Bool) throws {
        let (width, height) = (2000, 1000)
        var rng = FuzzRandom(state: 7)
        let indices = (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 5 == 0 ? rng.next() : 3) }
        // Stored rows: in interlace order when interlaced.
        var order = GIFRowOrder(height: height, interlaced: interlaced)
        var stored: [UInt8] = []
        for _ in 0..<height {
            let y = order.next()!
            stored += indices[(y * width)..<((y + 1) * width)]
        }
        let data = stored.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: 8) }
        var file = LZWOracle.file(width: 4, height: 4, bits: 8, data: data)
        // The image descriptor (after the header and the 768-byte table):
        // 2000×1000, interlace flag.
        let d = 13 + 768
        file[d + 5] = UInt8(width & 255)
        file[d + 6] = UInt8(width >> 8)
        file[d + 7] = UInt8(height & 255)
        file[d + 8] = UInt8(height >> 8)
        file[d + 9] = interlaced ? 0x40 : 0
        var options = DecodingOptions()
        options.growsCanvasToFirstImage = false
        let frame = try ImageSource(data: file, options: options).frame(at: 0)
        #expect(frame.width == 4 && frame.height == 4)
        for y in 0..<4 {
            for x in 0..<4 {
                let v = Int(indices[y * width + x])
                let p = frame.pixel(x: x, y: y)
                let got: [Int] = [Int(p.r), Int(p.g), Int(p.b)]
                let want: [Int] = (0..<3).map { (3 * v + $0) * 7 % 256 }
                #expect(got == want, "pixel \(x),\(y)")
            }
        }
    }
}
