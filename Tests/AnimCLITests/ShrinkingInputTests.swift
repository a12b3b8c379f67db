import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27: a file truncated while anim reads it ended anim with SIGBUS
/// (exit 135). Now it is an error naming the file.
struct ShrinkingInputTests {
    @Test func aFileTruncatedWhileReadIsAnError() throws {
        let dir = try TempDirectory()
        let path = dir.file("big.gif")
        try Data(try Fixtures.paddedDemoGIF()).write(to: URL(fileURLWithPath: path))
        // Decoding every frame over and over: the truncation lands inside.
        let out = Pipe()
        let err = Pipe()
        let p = try Process.launch(CLI.binary, ["bench", path, "--runs", "1000000"], output: out, errors: err)
        // Once the file is mapped (on a loaded machine the process took
        // longer than half a second to start, and read the cut file whole).
        var mapped = false
        for _ in 0..<200 where !mapped {
            usleep(50_000)
            mapped = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/maps", encoding: .utf8))?.contains(path) == true
        }
        #expect(mapped)
        usleep(200_000)
        #expect(truncate(path, 1000) == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 1, "status \(p.terminationStatus)")
        #expect(
            stderr.hasPrefix("anim: \(path): ") && stderr.hasSuffix(": the file changed while it was read\n"), "\(stderr)")
    }
}
