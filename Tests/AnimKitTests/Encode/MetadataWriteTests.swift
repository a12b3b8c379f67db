import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Metadata written by every writer and read back: from Pillow's public
/// files (profile, EXIF, XMP, comments) through `transcode` into each
/// format, by hand-made metadata with awkward text, and `keepingMetadata`.
/// Also: a one-frame APNG output is a plain PNG.
struct MetadataWriteTests {
    static let sources = [
        "metadata/flower2.webp", "metadata/icc_profile.png", "metadata/xmp_tags_orientation.png",
        "metadata/multiple_comments.gif",
    ]

    /// What `format` keeps of `m`, as read back.
    func expected(_ m: ImageMetadata, in format: OutputFormat) -> ImageMetadata {
        var e = m
        switch format {
        case .apng: e.text = m.text.map { .init(keyword: $0.keyword.isEmpty ? "Comment" : $0.keyword, text: $0.text) }
        case .gif:
            e.exif = nil
            e.text = m.text.map { .init(keyword: "", text: ImageMetadata.gifComment($0)) }
        case .webp: e.text = []
        }
        return e
    }

    @Test(arguments: sources, OutputFormat.allCases)
    func transcodeKeepsWhatTheFormatHolds(_ path: String, _ format: OutputFormat) throws {
        let source = try Fixtures.source(path)
        #expect(!source.metadata.isEmpty)
        let report = try Transcoder(source, format: format).write(to: .memory)
        let back = try ImageSource(data: try #require(report.data), name: "out")
        #expect(back.metadata == expected(source.metadata, in: format), "\(path) → \(format)")
        #expect(
            report.adjustments.filter { $0.description.hasPrefix("not kept") }.count == source.metadata.lost(in: format).count)
        #expect(back.frameCount == source.frameCount)
    }

    @Test func keepingMetadataFalseWritesNone() throws {
        let source = try Fixtures.source("metadata/flower2.webp")
        for format in OutputFormat.allCases {
            let data = try #require(
                try Transcoder(source, format: format, keepingMetadata: false).write(to: .memory).data)
            #expect(try ImageSource(data: data).metadata.isEmpty, "\(format)")
        }
    }

    @Test func lostNamesWhatEachFormatDrops() {
        var m = ImageMetadata()
        m.exif = [0x4D, 0x4D, 0, 42]
        m.text = [.init(keyword: "Title", text: "t")]
        #expect(m.lost(in: .apng).isEmpty)
        #expect(m.lost(in: .gif) == ["EXIF (4 bytes): GIF has no EXIF block"])
        #expect(m.lost(in: .webp) == ["1 text entry: WebP has no text chunk"])
    }

    /// Non-Latin-1 text goes to iTXt, a keyword PNG cannot hold into the
    /// text of a `Comment`; GIF keeps keywords as "keyword: text"; a long
    /// profile is split in sub-blocks; the XMP packet stays byte for byte.
    @Test func awkwardTextAndLongBlocks() throws {
        var m = ImageMetadata()
        m.text = [
            .init(keyword: "Title", text: "Café"), .init(keyword: "Author", text: "日本語 ✓"),
            .init(keyword: String(repeating: "k", count: 80), text: "long keyword"), .init(keyword: "", text: "a comment"),
        ]
        m.iccProfile = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        m.xmp =
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
            + String(repeating: "é", count: 300) + "</x:xmpmeta><?xpacket end=\"w\"?>"
        var options = EncodingOptions()
        options.metadata = m
        for format in OutputFormat.allCases {
            let out = try ImageDestination(format: format, options: options)
            for f in 0..<2 {
                try out.add(
                    RGBAImage(width: 3, height: 2, trusting: [UInt8](repeating: UInt8(f * 90), count: 24)),
                    duration: .milliseconds(50))
            }
            try out.finish()
            let data = try #require(out.data)
            let back = try ImageSource(data: data).metadata
            #expect(back.iccProfile == m.iccProfile && back.xmp == m.xmp, "\(format)")
            if format == .gif {
                #expect(
                    back.text.map(\.text) == [
                        "Title: Café", "Author: 日本語 ✓", String(repeating: "k", count: 80) + ": long keyword", "a comment",
                    ])
                #expect(try ImageSource(data: data).frameCount == 2, "the images after the XMP trailer are found")
            }
            if format == .apng {
                #expect(back.text.map(\.keyword) == ["Title", "Author", "Comment", "Comment"])
                #expect(
                    back.text.map(\.text) == ["Café", "日本語 ✓", String(repeating: "k", count: 80) + ": long keyword", "a comment"])
                #expect(data.count > 0 && Self.chunkTypes(data).prefix(4) == ["IHDR", "acTL", "iCCP", "iTXt"])
            }
        }
    }

    /// The chunk types of a PNG, in order.
    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var at = 8
        while at + 12 <= png.count {
            let n = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            types.append(String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self))
            at += 12 + n
        }
        return types
    }

    @Test func oneFrameIsAPlainPNG() throws {
        let image = RGBAImage(width: 4, height: 3, trusting: (0..<48).map { UInt8($0 * 5) })
        let out = try ImageDestination(format: .apng)
        try out.add(image, duration: .milliseconds(40))
        try out.finish()
        let data = try #require(out.data)
        #expect(Self.chunkTypes(data) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"], "12 colours: a palette")
        let back = try ImageSource(data: data)
        let decoded = try back.frame(at: 0)
        #expect(back.format == .png && back.frameCount == 1 && decoded == image)
        // Two frames stay an APNG.
        let two = try ImageDestination(format: .apng)
        try two.add(image, duration: .milliseconds(40))
        try two.add(RGBAImage(width: 4, height: 3), duration: .milliseconds(40))
        try two.finish()
        #expect(try ImageSource(data: try #require(two.data)).format == .apng)
    }

    /// Through a pipe (no seeking), a frame count of 1 given up front also
    /// writes a plain PNG.
    @Test func oneFrameAnnouncedOnAPipe() throws {
        let pipe = Pipe()
        var options = EncodingOptions()
        options.frameCount = 1
        let out = try ImageDestination(
            fileDescriptor: pipe.fileHandleForWriting.fileDescriptor, format: .apng, options: options)
        try out.add(RGBAImage(width: 2, height: 2, trusting: [UInt8](repeating: 255, count: 16)), duration: .milliseconds(10))
        try out.finish()
        try pipe.fileHandleForWriting.close()
        let data = Array(pipe.fileHandleForReading.readDataToEndOfFile())
        #expect(Self.chunkTypes(data) == ["IHDR", "IDAT", "IEND"])
        #expect(try ImageSource(data: data).format == .png)
    }
}
