import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// `ImageSource.metadata` on public files (sizes as Pillow reads them) and
/// on GIF extensions built here (ICC and XMP application extensions).
struct MetadataTests {
    /// The ICC header's signature, "acsp" at bytes 36–39.
    static func isICC(_ bytes: [UInt8]?) -> Bool {
        guard let bytes, bytes.count >= 128 else { return false }
        return Array(bytes[36..<40]) == Array("acsp".utf8)
            && Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]) == bytes.count
    }

    @Test func webPChunks() throws {
        let m = try Fixtures.source("metadata/flower2.webp").metadata
        #expect(m.iccProfile?.count == 3144 && Self.isICC(m.iccProfile))
        #expect(m.exif?.count == 6573)
        #expect(m.xmp?.utf8.count == 3467 && m.xmp?.contains("x:xmpmeta") == true)
    }

    @Test func pngICCAndXMP() throws {
        let icc = try Fixtures.source("metadata/icc_profile.png").metadata
        #expect(icc.iccProfile?.count == 3144 && Self.isICC(icc.iccProfile), "iCCP inflated")
        let xmp = try Fixtures.source("metadata/xmp_tags_orientation.png").metadata
        #expect(xmp.xmp?.contains("tiff:Orientation") == true, "XMP from iTXt XML:com.adobe.xmp")
        #expect(Self.isICC(xmp.iccProfile))
    }

    @Test func gifComments() throws {
        let m = try Fixtures.source("metadata/multiple_comments.gif").metadata
        #expect(m.text.map(\.keyword).allSatisfy { $0.isEmpty })
        #expect(m.text.first?.text == "Test comment 1")
        #expect(m.text.contains { $0.text == "Test comment 4" })
    }

    /// A 1×1 GIF with a comment, an ICC profile split over sub-blocks and an
    /// XMP packet stored Adobe's way (raw bytes, then the magic trailer).
    @Test func gifApplicationExtensions() throws {
        var profile = [UInt8](repeating: 7, count: 600)
        profile.replaceSubrange(0..<4, with: [0, 0, 2, 0x58])
        profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
        let xmp = "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'/><?xpacket end='w'?>"
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        gif += [0x21, 0xFE, 5] + Array("hello".utf8) + [0]
        gif += [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
        for start in stride(from: 0, to: profile.count, by: 255) {
            let chunk = profile[start..<min(start + 255, profile.count)]
            gif += [UInt8(chunk.count)] + chunk
        }
        gif += [0]
        gif += [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + Array(xmp.utf8)
        gif += [1] + (0...255).reversed().map { UInt8($0) } + [0]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
        let source = try ImageSource(data: gif)
        #expect(source.frameCount == 1)
        #expect(source.metadata.iccProfile == profile)
        #expect(source.metadata.xmp == xmp)
        #expect(source.metadata.text == [ImageMetadata.TextEntry(keyword: "", text: "hello")])
        #expect(try source.frame(at: 0).pixels == [0, 0, 0, 255], "the image after the extensions still decodes")
    }

    @Test func noMetadataIsEmpty() throws {
        #expect(try Fixtures.source("extra/long.gif").metadata.isEmpty)
        #expect(try Fixtures.source("webp/lossless-anim-alpha.webp").metadata.isEmpty)
    }
}
