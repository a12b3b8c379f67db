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
    @Test func aTruncatedMappedFileIsAnErrorNotACrash() throws {
        let dir = try TempDirectory()
        let path = dir.file("noise.gif")
        try Data(try Fixtures.paddedDemoGIF()).write(to: URL(fileURLWithPath: path))
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

    /// Cut after every frame was read: indexing it again reads only its
    /// first page, which holds a GIF of one empty frame, and nothing past
    /// the new end, so no read faults. The file's size tells.
    @Test func aFileCutAfterItWasReadIsChangedWithoutAFault() throws {
        let dir = try TempDirectory()
        let path = dir.file("noise.gif")
        try Data(try Fixtures.paddedDemoGIF()).write(to: URL(fileURLWithPath: path))
        let source = try ImageSource(path: path, options: DecodingOptions(decodeAhead: 0))
        for i in 0..<source.frameCount { _ = try source.frame(at: i) }
        #expect(truncate(path, 1000) == 0)
        #expect {
            _ = try source.reopened()
        } throws: { error in
            (error as? AnimError)?.description == "\(path): the file changed while it was read"
        }
    }
}
