import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27: a mapped file (4 MiB or more) truncated while a source reads
/// it ended the process with SIGBUS. Now the frames read before stay
/// usable, and the next one is an error naming the file and the frame.
struct ShrinkingFileTests {
    /// The demo GIF with 4.5 MB of an application extension after its
    /// global table: over `ByteStore.mapThreshold`, so mapped, not read,
    /// and every frame lies past the padding.
    func paddedGIF(at path: String) throws {
        let demo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.demo)))
        let flags = demo[10]
        let table = flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
        var padding: [UInt8] = [0x21, 0xFF, 11] + Array("ANIMPADDING".utf8)
        for _ in 0..<(4_500_000 / 255) { padding += [255] + [UInt8](repeating: 0x55, count: 255) }
        padding.append(0)
        let bytes = demo[..<(13 + table)] + padding + demo[(13 + table)...]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func aTruncatedMappedFileIsAnErrorNotACrash() throws {
        let dir = try TempDirectory()
        let path = dir.file("noise.gif")
        try paddedGIF(at: path)
        var st = stat()
        stat(path, &st)
        #expect(Int(st.st_size) >= ByteStore.mapThreshold)
        let source = try ImageSource(path: path, options: DecodingOptions(decodeAhead: 0))
        #expect(source.frameCount == 30)
        let first = try source.frame(at: 0)
        #expect(truncate(path, 1000) == 0)
        #expect {
            _ = try source.frame(at: 15)
        } throws: { error in
            (error as? AnimError)?.description == "\(path): frame 15: the file changed while it was read"
        }
        // What was read before is the file's still.
        #expect(first.pixels == (try ImageSource(path: Repository.demo).frame(at: 0)).pixels)
        #expect(throws: AnimError.self) { _ = try source.frame(at: 1) }
    }
}
