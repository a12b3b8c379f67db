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

    /// Every format read has its codec, and each format's facts are its
    /// codec's: the values the shared code switched on before.
    @Test func eachFormatsFactsAreItsCodecs() {
        for format in [ImageFormat.gif, .png, .apng, .webp] { #expect(Formats.codec(of: format).reads.contains(format)) }
        #expect(ImageFormat.png.outputFormat == .apng && ImageFormat.gif.outputFormat == .gif)
        #expect(OutputFormat.allCases.map(\.fileExtension) == ["gif", "png", "webp"])
        #expect(OutputFormat.allCases.map { EncodingOptions.maximumPlays(in: $0) } == [65536, Int(Int32.max), 65535])
        #expect(OutputFormat(pathExtension: "a/b.APNG") == .apng && OutputFormat(pathExtension: "b.jpg") == nil)
        #expect(OutputFormat.allCases.filter { Formats.writing($0).countsFramesFirst } == [.apng])
        #expect(OutputFormat.allCases.filter { $0.rewritesAsStored } == [.gif])
        #expect(Formats.all.filter(\.profileIsColor).map(\.output) == [.gif, .webp])
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
