import AnimTestSupport
import Testing

@testable import AnimKit

/// APNGs whose animation chunks break the rules show their still image, as
/// Chromium, Firefox, Pillow and ffmpeg do (issue 14): an `acTL` after
/// `IDAT` quietly (a plain PNG by the specification), an invalid `acTL`
/// with a warning that says why. Never an index error. (A second `acTL`
/// is ignored instead, as Chromium plays the file: `APNGBrowserRuleTests`.)
struct APNGStillFallbackTests {
    static let cases: [(file: String, warning: String?)] = [
        ("chunk_actl_after_idat", nil),
        ("syntax_num_frames_invalid", "acTL num_frames 2147483649 is out of range"),
        ("syntax_num_frames_zero_default", "acTL num_frames 0 is out of range"),
    ]

    /// The file without its acTL, fcTL and fdAT chunks: the plain PNG a
    /// reader that knows no APNG sees.
    static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array(bytes[0..<8])
        var i = 8
        while i + 12 <= bytes.count {
            let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            if !["acTL", "fcTL", "fdAT"].contains(type) { out += bytes[i..<(i + 12 + n)] }
            i += 12 + n
        }
        return out
    }

    @Test(arguments: cases.map(\.file))
    func theStillImageIsShown(_ name: String) throws {
        let expected = try #require(Self.cases.first { $0.file == name }).warning
        let bytes = try Fixtures.bytes("apng-public/\(name).png")
        let source = try ImageSource(data: bytes, name: name)
        #expect(source.indexError == nil, "\(String(describing: source.indexError))")
        #expect(source.format == .png && source.frameCount == 1 && source.plays == .count(1))
        if let expected {
            #expect(source.warnings.count == 1 && source.warnings[0].description.hasPrefix(expected), "\(source.warnings)")
        } else {
            #expect(source.warnings.isEmpty)
        }
        let plain = try ImageSource(data: Self.stripped(bytes), name: "stripped")
        #expect(plain.format == .png && plain.warnings.isEmpty)
        #expect(try source.frame(at: 0) == plain.frame(at: 0))
    }
}
