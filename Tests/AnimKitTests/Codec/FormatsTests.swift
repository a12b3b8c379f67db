import Testing

@testable import AnimKit

/// The one list of formats: every format written has a codec, and each
/// signature is told apart, whole or cut short.
struct FormatsTests {
    @Test func everyOutputFormatHasItsCodec() {
        for format in OutputFormat.allCases {
            #expect(Formats.writing(format).output == format)
        }
    }

    static let signatures: [([UInt8], OutputFormat)] = [
        (Array("GIF89a".utf8) + [1, 0], .gif), (Array("GIF87a".utf8), .gif),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], .apng),
        (Array("RIFF".utf8) + [9, 9, 9, 9] + Array("WEBPVP8 ".utf8), .webp),
    ]

    @Test(arguments: signatures)
    func signaturesName(bytes: [UInt8], format: OutputFormat) {
        bytes.withUnsafeBytes { raw in
            #expect(Formats.reading(raw)?.output == format)
            #expect(!Formats.couldBegin(raw), "whole: not merely a beginning")
            let cut = UnsafeRawBufferPointer(rebasing: raw[0..<3])
            #expect(Formats.reading(cut) == nil && Formats.couldBegin(cut))
        }
    }

    @Test func otherBytesAreNoFormat() {
        let others: [[UInt8]] = [
            Array("GIF88a".utf8), Array("RIFF1234WEBQ".utf8), [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0], [1, 2],
        ]
        for bytes in others {
            bytes.withUnsafeBytes { raw in
                #expect(Formats.reading(raw) == nil)
                #expect(!Formats.couldBegin(raw), "\(bytes)")
            }
        }
    }
}
