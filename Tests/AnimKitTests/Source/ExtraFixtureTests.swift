import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// APNG colour types and bit depths, and GIF interlace/palettes/disposal,
/// against the composited frames written by Tools/fixtures/make-extra-fixtures.py.
struct ExtraFixtureTests {
    struct Expected: Decodable {
        var format: String
        var width: Int
        var height: Int
        var frame_count: Int
        var delays_ms: [Double]
        /// Base64 RGBA of every composited frame; absent for long files.
        var rgba: [String]?

        enum CodingKeys: String, CodingKey { case format, width, height, frame_count, delays_ms, rgba }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            format = try c.decode(String.self, forKey: .format)
            width = try c.decode(Int.self, forKey: .width)
            height = try c.decode(Int.self, forKey: .height)
            frame_count = try c.decode(Int.self, forKey: .frame_count)
            delays_ms = try c.decode([Double].self, forKey: .delays_ms)
            rgba = try? c.decode([String].self, forKey: .rgba)
        }
    }

    static let expected: [String: Expected] = {
        struct File: Decodable { var files: [String: Expected] }
        guard let data = try? Data(contentsOf: Fixtures.url("extra/EXPECTED.json")) else { return [:] }
        return (try? JSONDecoder().decode(File.self, from: data).files) ?? [:]
    }()

    static let names = expected.keys.sorted()

    @Test func fixturesExist() { #expect(Self.names.count >= 8) }

    @Test(arguments: names)
    func framesMatch(_ name: String) throws {
        let e = try #require(Self.expected[name])
        let source = try Fixtures.source("extra/" + name, options: DecodingOptions(durationPolicy: .raw))
        #expect(source.format.rawValue == e.format)
        #expect(source.width == e.width && source.height == e.height)
        try #require(source.frameCount == e.frame_count, "\(name): frame count \(source.frameCount)")
        for (i, ms) in e.delays_ms.enumerated() {
            #expect(abs(source.frames[i].delay.milliseconds - ms) < 0.001, "\(name) frame \(i): delay")
        }
        for (i, b64) in (e.rgba ?? []).enumerated() {
            let want = try #require(Data(base64Encoded: b64)).map { $0 }
            let got = try source.frame(at: i).pixels
            try #require(got.count == want.count)
            var bad = 0
            for p in stride(from: 0, to: got.count, by: 4) {
                if want[p + 3] == 0 {
                    if got[p + 3] != 0 { bad += 1 }
                    continue
                }
                for c in 0..<4 where abs(Int(got[p + c]) - Int(want[p + c])) > 1 {
                    bad += 1
                    break
                }
            }
            #expect(bad == 0, "\(name) frame \(i): \(bad) pixels differ")
        }
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
