import AnimTestSupport
import Foundation
import Testing

/// Issue 27: `extract` after a failure said nothing of what it left (a full
/// disk left frames 0-6 and 8), and a folder it made stayed, empty, when
/// the input was not an image.
struct ExtractFailureTests {
    @Test func aFolderMadeForNothingIsRemoved() throws {
        let dir = try TempDirectory()
        let r = try CLI.run(["extract", "-", dir.file("frames")], stdin: Data(repeating: 0x5A, count: 3000))
        #expect(r.status == 1 && r.stderr.contains("<stdin>"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("frames")))
        // A folder that was there stays.
        try FileManager.default.createDirectory(atPath: dir.file("kept"), withIntermediateDirectories: false)
        _ = try CLI.run(["extract", "-", dir.file("kept")], stdin: Data(repeating: 0x5A, count: 3000))
        #expect(FileManager.default.fileExists(atPath: dir.file("kept")))
    }

    /// A write that fails (the folder made read-only after the first
    /// frames is not possible as root; a file where the third frame goes
    /// is): the message says which frames are on disk.
    @Test func aWriteErrorSaysWhichFramesAreOnDisk() throws {
        let dir = try TempDirectory()
        let out = dir.file("frames")
        try FileManager.default.createDirectory(atPath: out + "/frame-00002.png", withIntermediateDirectories: true)
        let r = try CLI.run(["extract", Repository.demo, out, "--frames", "0-2"])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.first?.contains("frame-00002.png") == true, "\(r.stderr)")
        #expect(lines.last == "anim: frames 0-1 are in \(out)", "\(r.stderr)")
    }
}
