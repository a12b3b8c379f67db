import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// The 61 images of the public APNG conformance tests (Philip Taylor, as
/// shipped in APNGKit, MIT; see Fixtures/CONFORMANCE-LICENCE.md), checked
/// against EXPECTED.tsv.
struct APNGConformanceTests {
    struct Case: CustomStringConvertible {
        var file, frames, loops, delays, rgba, expect, what: String
        var description: String { "\(file) (\(what))" }
    }

    static let cases: [Case] = {
        let text = (try? String(contentsOf: Fixtures.url("apng-suite/EXPECTED.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 7 else { return nil }
            return Case(file: f[0], frames: f[1], loops: f[2], delays: f[3], rgba: f[4], expect: f[5], what: f[6])
        }
    }()

    @Test func suiteIsComplete() { #expect(Self.cases.count == 61) }

    /// Expected to be rejected by the suite, shown as their still image by
    /// Chromium, Firefox, Pillow and ffmpeg, and so by anim (issue 14, see
    /// `APNGStillFallbackTests`): a solid green still and a warning.
    static let stillInstead: Set<String> = ["050.png"]

    /// Where Chromium plays a file the suite rejects or wants green:
    /// `APNGBrowserRuleTests` holds what it shows.
    static let asChromium: Set<String> = Set(APNGBrowserRuleTests.cases.map(\.file) + ["060.png"])

    @Test(arguments: cases)
    func conformance(_ c: Case) throws {
        let path = "apng-suite/" + c.file
        if Self.asChromium.contains(c.file) { return }
        if Self.stillInstead.contains(c.file) {
            let source = try Fixtures.source(path)
            #expect(source.indexError == nil && source.frameCount == 1 && !source.warnings.isEmpty)
            let image = try source.frame(at: 0)
            #expect(
                stride(from: 0, to: image.pixels.count, by: 4).allSatisfy {
                    Array(image.pixels[$0..<($0 + 4)]) == [0, 255, 0, 255]
                })
            return
        }
        switch c.expect {
        case "error":
            // Rejected at open, in the index, or when the frames decode.
            let source = try? Fixtures.source(path)
            let rejected = source == nil || source?.indexError != nil || allFrames(source!).error != nil
            #expect(rejected, "\(c.file) must be rejected")
        case "green-or-error":
            guard let source = try? Fixtures.source(path), source.indexError == nil else { return }
            for i in 0..<source.frameCount {
                let image = try source.frame(at: i)
                let notGreen = stride(from: 0, to: image.pixels.count, by: 4).filter {
                    Array(image.pixels[$0..<($0 + 4)]) != [0, 255, 0, 255]
                }
                #expect(notGreen.isEmpty, "\(c.file) frame \(i) must be solid green")
            }
        default:
            try checkPixels(c, path)
        }
    }

    /// The expected pixels are the stored values the suite's blending
    /// makes: 022 and 023 carry `gAMA` 1.0, which colour management would
    /// convert (`ColorManagementTests` covers that), so they are read as
    /// stored.
    func checkPixels(_ c: Case, _ path: String) throws {
        var stored = DecodingOptions()
        stored.colorManagement = .none
        let source = try Fixtures.source(path, options: stored)
        #expect(source.indexError == nil, "\(c.file): \(String(describing: source.indexError))")
        #expect(source.frameCount == Int(c.frames), "\(c.file): frame count")
        if c.loops == "-" {
            #expect(source.format == .png && source.loopCount == nil, "\(c.file): a still PNG")
        } else {
            #expect(source.format == .apng && source.loopCount == Int(c.loops), "\(c.file): loops")
        }
        if c.delays != "-" {
            let want = c.delays.split(separator: ",").compactMap { Int($0) }
            for (i, ms) in want.enumerated() {
                #expect(source.frames[i].delay == .milliseconds(ms), "\(c.file) frame \(i): delay")
            }
        }
        let image = try source.frame(at: source.frameCount - 1)
        let points = [(0, 0), (image.width / 2, image.height / 2), (image.width - 1, image.height - 1)]
        for (k, spec) in c.rgba.split(separator: ";").enumerated() {
            let want = spec.split(separator: ",").compactMap { Int($0) }
            let p = image.pixel(x: points[k].0, y: points[k].1)
            let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
            let close = want[3] == 0 ? got[3] == 0 : zip(got, want).allSatisfy { abs($0 - $1) <= 1 }
            #expect(close, "\(c.file) at \(points[k]): got \(got), expected \(want)")
        }
    }
}
