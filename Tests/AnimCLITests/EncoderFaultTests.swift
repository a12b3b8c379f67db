import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// The encoder when writing fails: a file size limit (`ulimit -f`, as a
/// full disk fails a write), a device that is always full, and outputs
/// that are not plain files (devices, symbolic links). Nothing partial is
/// left, an existing OUT is untouched, and the error says so.
struct EncoderFaultTests {
    static let formats = ["gif", "png", "webp"]

    func frames() throws -> URL { try EncodeCommandTests().frameFolder(12).0 }

    /// Runs anim under `ulimit -f 1` (at most 512 or 1024 bytes a file).
    func runLimited(_ args: [String]) throws -> (status: Int32, stderr: String) {
        let r = try Command.run("/bin/sh", ["-c", "ulimit -f 1 && exec \"$0\" \"$@\"", CLI.binary.path] + args)
        return (r.status, r.errorText)
    }

    func leftovers(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
    }

    /// Not under ThreadSanitizer: its runtime dies of SIGBUS under
    /// `ulimit -f 1` before anim runs (AddressSanitizer is fine).
    @Test(
        .disabled(if: ProcessInfo.processInfo.environment["ANIM_SANITIZER"] == "thread", "TSan runtime and ulimit -f"),
        arguments: formats)
    func fileSizeLimitLeavesNothing(_ ext: String) throws {
        let input = try frames()
        let dir = TempDirectory.make()
        let existing = dir.appendingPathComponent("old.\(ext)")
        let fresh = dir.appendingPathComponent("new.\(ext)")
        try Data("keep me".utf8).write(to: existing)
        for out in [existing, fresh] {
            let r = try runLimited(["encode", input.path, out.path])
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("\(out.path): cannot write: File too large"), "\(r.stderr)")
        }
        let r1 = try runLimited(["encode", input.path, existing.path])
        #expect(r1.stderr.contains("nothing written: \(existing.path) is as it was"), "\(r1.stderr)")
        let r2 = try runLimited(["encode", input.path, fresh.path])
        #expect(r2.stderr.contains("nothing written: no \(fresh.path) was created"), "\(r2.stderr)")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
        #expect(try leftovers(dir).isEmpty)
    }

    /// /dev/full takes no byte: the error names it, and the device is still
    /// a device (an earlier version renamed its temporary file over it).
    @Test(arguments: formats)
    func fullDeviceIsAnError(_ ext: String) throws {
        let r = try CLI.run(["encode", try frames().path, "/dev/full", "--format", ext == "png" ? "apng" : ext])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/dev/full: cannot write: No space left on device"), "\(r.stderr)")
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
    }

    /// Through the library, on a descriptor: the error, for every format.
    @Test(arguments: OutputFormat.allCases)
    func fullDescriptorThrows(_ format: OutputFormat) throws {
        let fd = open("/dev/full", O_WRONLY)
        defer { close(fd) }
        var options = EncodingOptions()
        options.frameCount = 3
        let out = try ImageDestination(fileDescriptor: fd, name: "full", format: format, options: options)
        let (_, images) = try EncodeCommandTests().frameFolder(3)
        #expect {
            for image in images { try out.add(image, duration: .milliseconds(40)) }
            try out.finish()
        } throws: { error in
            guard let error = error as? AnimError, let io = error.problem as? IOFailure else { return false }
            return error.file == "full" && io.errno == ENOSPC
        }
    }

    /// A device path is written to directly: /dev/stdout carries the file
    /// (APNG too: the frame count is known up front).
    @Test(arguments: ["gif", "apng", "webp"])
    func standardOutputPath(_ format: String) throws {
        let (dir, images) = try EncodeCommandTests().frameFolder(5)
        let r = try CLI.run(["encode", dir.path, "/dev/stdout", "--format", format] + (format == "webp" ? ["--lossless"] : []))
        #expect(r.status == 0, "\(r.stderr)")
        let source = try ImageSource(data: [UInt8](r.stdoutData))
        #expect(source.frameCount == 5)
        if format != "gif" { #expect(try source.frame(at: 4) == images[4]) }
    }

    /// OUT a symbolic link: the file it points to is replaced, the link
    /// stays; a link to nothing yet creates its target.
    @Test func symbolicLinksStay() throws {
        // Round 0 creates the target (12 frames), round 1 replaces it (5 frames).
        let inputs = [try frames(), try EncodeCommandTests().frameFolder(5).0]
        let dir = TempDirectory.make()
        let link = dir.appendingPathComponent("link.gif").path
        let target = dir.appendingPathComponent("target.gif").path
        #expect(symlink("target.gif", link) == 0)
        for (round, input) in inputs.enumerated() {
            let r = try CLI.run(["encode", input.path, link])
            #expect(r.status == 0, "round \(round): \(r.stderr)")
            var st = stat()
            #expect(lstat(link, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "round \(round)")
            #expect(try ImageSource(path: target).frameCount == (round == 0 ? 12 : 5), "round \(round)")
        }
    }

    /// /dev/stdout when the shell redirected it to a file: written through
    /// the descriptor, into the very file the shell opened (an earlier
    /// version renamed a new file over the redirect's target: another
    /// inode, and an append redirect lost what the file held).
    @Test func standardOutputRedirectedToAFile() throws {
        let (dir, _) = try EncodeCommandTests().frameFolder(5)
        let out = TempDirectory.make().appendingPathComponent("redirected.gif")
        #expect(FileManager.default.createFile(atPath: out.path, contents: nil))
        var before = stat()
        var after = stat()
        #expect(stat(out.path, &before) == 0)
        let p = try Process.launch(
            CLI.binary, ["encode", dir.path, "/dev/stdout", "--format", "gif"], output: try FileHandle(forWritingTo: out))
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(stat(out.path, &after) == 0 && after.st_ino == before.st_ino, "the redirect's file was replaced")
        #expect(try ImageSource(path: out.path).frameCount == 5)
    }

    /// Under nohup (SIGHUP ignored), a hangup does not stop an encode.
    @Test func ignoredHangupStaysIgnored() throws {
        let outDir = TempDirectory.make()
        let out = outDir.appendingPathComponent("out.gif").path
        let p = try Process.launch(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "trap '' HUP && exec \"$0\" \"$@\"", CLI.binary.path, "encode", EncodeMemoryTests.folders.many.path, out],
            errors: FileHandle.nullDevice)
        let end = Date().addingTimeInterval(20)
        var sawTemporary = false
        while p.isRunning && Date() < end && !sawTemporary {
            sawTemporary = (try? leftovers(outDir))?.isEmpty == false
            usleep(5_000)
        }
        #expect(sawTemporary, "the encode ended before the hangup")
        kill(p.processIdentifier, SIGHUP)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0)
        #expect(try ImageSource(path: out).frameCount > 1)
    }
}
