import AnimTestSupport
import Testing

@testable import AnimKit

/// APNG suite cases the suite rejects (or accepts only green) but Chromium
/// plays: anim plays them as Chromium 156's `ImageDecoder` does (frames,
/// pixels and plays from `python3 Tools/browser/check.py` on each file),
/// with a warning and no index error. The files are also Pillow's
/// `chunk_multi_actl.png`, `chunk_no_fdat.png` and
/// `syntax_num_frames_low.png`. The frame shown is the `fdAT` one, solid
/// red, where the suite wants the green default image or an error.
struct APNGBrowserRuleTests {
    static let cases: [(file: String, frames: Int, warning: String)] = [
        // Two acTL chunks: the first is kept, the animation plays.
        ("040.png", 1, "a second acTL chunk at byte 53 is ignored"),
        // An fcTL without fdAT before the next fcTL: skipped; it still
        // counts towards num_frames 2, so no index error.
        ("044.png", 1, "the fcTL at byte 257 has no image data: the frame is skipped"),
        // num_frames 1 and two frames: the second is not shown.
        ("047.png", 1, "acTL declares 1 frame: the fcTL at byte 458 and the frames after it are ignored"),
    ]

    /// 060, `fdAT` too large: its data inflates to more than the frame's
    /// rows. Chromium shows the frame (the rows, the surplus ignored), so
    /// libpng's benign "Too much image data" is not an error here.
    @Test func surplusFrameDataIsIgnored() throws {
        let source = try Fixtures.source("apng-suite/060.png")
        #expect(source.indexError == nil && source.frameCount == 1)
        let image = try source.frame(at: 0)
        #expect(
            stride(from: 0, to: image.pixels.count, by: 4).allSatisfy {
                Array(image.pixels[$0..<($0 + 4)]) == [255, 0, 0, 255]
            })
    }

    @Test(arguments: cases.map(\.file))
    func playedAsChromiumPlaysIt(_ file: String) throws {
        let c = try #require(Self.cases.first { $0.file == file })
        let source = try Fixtures.source("apng-suite/" + file)
        #expect(source.indexError == nil, "\(String(describing: source.indexError))")
        #expect(source.format == .apng && source.frameCount == c.frames && source.plays == .forever)
        #expect(source.warnings.map(\.description) == [c.warning])
        let image = try source.frame(at: 0)
        #expect(image.width == 128 && image.height == 64)
        #expect(
            stride(from: 0, to: image.pixels.count, by: 4).allSatisfy {
                Array(image.pixels[$0..<($0 + 4)]) == [255, 0, 0, 255]
            })
    }
}
