import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// The GIF decoder test suite (Robert Ancell, CC BY-SA 4.0; see
/// Fixtures/CONFORMANCE-LICENCE.md): every case of its TESTS list.
struct GIFConformanceTests {
    struct Case: CustomStringConvertible {
        var name: String
        var config: [String: [String: String]]
        var description: String { name }
    }

    static let cases: [Case] = {
        let list = (try? String(contentsOf: Fixtures.url("gif-suite/TESTS"), encoding: .utf8)) ?? ""
        return list.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.map { name in
            let text = (try? String(contentsOf: Fixtures.url("gif-suite/\(name).conf"), encoding: .isoLatin1)) ?? ""
            return Case(name: name, config: parseINI(text))
        }
    }()

    static func parseINI(_ text: String) -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { continue }
            out[section, default: [:]][line[..<eq].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    /// Where the browsers play a case otherwise than its `loop-count`:
    /// `gif87a-animation` has no loop block, and Chromium 156's
    /// `ImageDecoder` gives it repetitionCount 0, one play
    /// (`Tools/browser/check.py` on the file); the suite says infinite.
    static let browserPlays: [String: Plays] = ["gif87a-animation": .count(1)]

    @Test func suiteIsComplete() {
        #expect(Self.cases.count == 84)
    }

    @Test(arguments: cases)
    func conformance(_ c: Case) throws {
        let config = c.config["config"] ?? [:]
        let input = "gif-suite/" + (config["input"] ?? "")
        let frameNames = (config["frames"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if frameNames.isEmpty {
            // Nothing to compare: reject or decode, but never crash.
            if let source = try? Fixtures.source(input) { _ = allFrames(source) }
            return
        }
        // The suite's frames are GIF89a's: images without delay drawn with
        // the next one (`--merge-zero-delay`; browsers show every image).
        let source = try Fixtures.source(input, options: Fixtures.merging)
        #expect(source.width == Int(config["width"] ?? ""), "\(c.name): width")
        #expect(source.height == Int(config["height"] ?? ""), "\(c.name): height")
        switch Self.browserPlays[c.name].map({ _ in "browser" }) ?? config["loop-count"] {
        case "browser"?: #expect(source.plays == Self.browserPlays[c.name], "\(c.name): plays as the browsers")
        case "infinite"?: #expect(source.plays == .forever, "\(c.name): loop")
        case "0"?: #expect(source.loopCount == nil && source.plays == .count(1), "\(c.name): loop")
        case let n?: #expect(source.loopCount == Int(n), "\(c.name): loop")
        case nil: break
        }
        try #require(
            source.frameCount == frameNames.count, "\(c.name): \(source.frameCount) frames, expected \(frameNames.count)")
        for (i, frameName) in frameNames.enumerated() {
            let expected = c.config[frameName] ?? [:]
            let image = try source.frame(at: i)
            if let delay = expected["delay"] {
                #expect(source.frames[i].delay == .milliseconds(Int(delay)! * 10), "\(c.name) frame \(i): delay")
            }
            if let pixels = expected["pixels"] {
                let want = try Fixtures.bytes("gif-suite/" + pixels)
                #expect(mismatches(image.pixels, want) == 0, "\(c.name) frame \(i): pixels differ")
            }
        }
        // By default every image is a frame, and the one that ends each
        // merged frame shows that frame.
        guard source.indexError == nil else { return }
        var unmerged = Fixtures.merging
        unmerged.mergesZeroDelayImages = false
        let each = try Fixtures.source(input, options: unmerged)
        let images = source.frames.map(\.imageRange.count).reduce(0, +)
        #expect(each.frameCount == max(images, 1), "\(c.name): images")  // (no image: the empty screen)
        for (k, frame) in source.frames.enumerated()
        where !frame.imageRange.isEmpty && frame.imageRange.upperBound - 1 < each.frameCount {
            #expect(
                try each.frame(at: frame.imageRange.upperBound - 1).pixels == source.frame(at: k).pixels,
                "\(c.name): image \(frame.imageRange.upperBound - 1) against merged frame \(k)")
        }
    }

    /// Pixels that differ, comparing colour only where expected alpha is not 0.
    func mismatches(_ got: [UInt8], _ want: [UInt8]) -> Int {
        guard got.count == want.count else { return max(got.count, want.count) / 4 }
        var n = 0
        for p in stride(from: 0, to: got.count, by: 4) {
            if want[p + 3] == 0 { if got[p + 3] != 0 { n += 1 } } else if got[p..<(p + 4)] != want[p..<(p + 4)] { n += 1 }
        }
        return n
    }
}
