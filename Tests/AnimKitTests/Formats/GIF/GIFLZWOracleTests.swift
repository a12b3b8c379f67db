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
