import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// `anim optimize`: smaller and the same frames, or the input kept, and no
/// temporary file left in the folder either way.
struct OptimizeCommandTests {
    /// A fresh folder holding a copy of `file` from the repository.
    func copy(_ relative: String) throws -> (dir: URL, path: String) {
        let dir = TempDirectory.make()
        let path = dir.appendingPathComponent((relative as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: Repository.root.appendingPathComponent(relative).path, toPath: path)
        return (dir, path)
    }

    func frames(_ s: ImageSource) throws -> [RGBAImage] { try (0..<s.frameCount).map { try s.frame(at: $0) } }

    @Test(arguments: ["Animations/demo.gif", "Animations/demo.png"])
    func inPlaceSmallerWithTheSameFrames(_ relative: String) throws {
        let (dir, path) = try copy(relative)
        let original = try ImageSource(path: Repository.root.appendingPathComponent(relative).path)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let r = try CLI.run(["optimize", path])
        #expect(r.status == 0 && r.stderr.contains("smaller"), "\(r.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(after < before)
        let back = try ImageSource(path: path)
        #expect(back.format == original.format && back.plays == original.plays)
        #expect(back.frames.map(\.duration) == original.frames.map(\.duration))
        #expect(try frames(back) == frames(original))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [(path as NSString).lastPathComponent])
    }

    /// Lossy WebP: the lossless rewrite is bigger, so the file is kept
    /// byte for byte; with OUT, OUT is a copy of it.
    @Test func aBiggerRewriteKeepsTheInput() throws {
        let (dir, path) = try copy("Animations/demo.webp")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let r = try CLI.run(["optimize", path])
        #expect(r.status == 0 && r.stderr.contains("kept"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let out = dir.appendingPathComponent("out.webp").path
        let o = try CLI.run(["optimize", path, out])
        #expect(o.status == 0 && o.stderr.contains("kept"), "\(o.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["demo.webp", "out.webp"])
    }

    /// Three identical frames of 500 ms: the rewrite merges them into one
    /// frame, a plain PNG that cannot keep the 1.5 s, so the input is kept,
    /// and OUT is a copy of it.
    @Test func aRewriteThatShowsOtherwiseKeepsTheInputAndCopiesIt() throws {
        let dir = TempDirectory.make()
        let path = dir.appendingPathComponent("still.png").path
        var o = EncodingOptions()
        o.mergeIdenticalFrames = false
        o.plays = 1
        let d = try ImageDestination(path: path, format: .apng, options: o)
        let image = RGBAImage(width: 8, height: 8, trusting: [UInt8](repeating: 200, count: 256))
        for _ in 0..<3 { try d.add(image, duration: .milliseconds(500)) }
        try d.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent("out.png").path
        let r = try CLI.run(["optimize", path, out])
        #expect(r.status == 0 && r.stderr.contains("kept: the rewrite would change the total duration"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// Issue 27: in place, the file kept neither its mode nor its owner
    /// (0600 and nobody became 0644 and root); now mode, owner, group and
    /// extended attributes are the old file's, as with `gifsicle -b`.
    @Test func inPlaceKeepsModeOwnerAndAttributes() throws {
        let (_, path) = try copy("Animations/demo.gif")
        #expect(chmod(path, 0o600) == 0)
        let owner = geteuid() == 0 ? getpwnam("nobody").map { ($0.pointee.pw_uid, $0.pointee.pw_gid) } : nil
        if let owner { #expect(chown(path, owner.0, owner.1) == 0) }
        let tagged = try Command.run(
            "/usr/bin/env", ["python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'user.anim', b'kept')", path])
        let r = try CLI.run(["optimize", path])
        #expect(r.status == 0 && r.stderr.contains("smaller"), "\(r.stderr)")
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o600)
        if let owner { #expect(st.st_uid == owner.0 && st.st_gid == owner.1) }
        if tagged.status == 0 {  // the file system takes user attributes
            let read = try Command.run(
                "/usr/bin/env", ["python3", "-c", "import os,sys; print(os.getxattr(sys.argv[1], 'user.anim'))", path])
            #expect(read.text == "b'kept'\n")
        }
    }

    /// Issue 27: SIGTERM in the middle of optimize left a hidden
    /// `.anim-optimize-PID.png.tmp-PID-1` beside the file. Now nothing is
    /// left and the file is as it was.
    @Test func aSignalLeavesNothingBehind() throws {
        let (dir, path) = try copy("Tools/bench/corpus/public/gif/glide-opaque_gif.gif")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let p = try Process.launch(CLI.binary, ["optimize", "-q", path], output: FileHandle.nullDevice)
        usleep(700_000)
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 143)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["glide-opaque_gif.gif"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    /// A symbolic link, as FILE (in place) or as OUT, stays a link: the
    /// file it names gets the smaller animation.
    @Test func linksStayLinks() throws {
        let (dir, path) = try copy("Animations/demo.gif")
        let fm = FileManager.default
        let link = dir.appendingPathComponent("link.gif").path
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "demo.gif")
        let before = try fm.attributesOfItem(atPath: path)[.size] as! Int
        let r = try CLI.run(["optimize", link])
        #expect(r.status == 0 && r.stderr.contains("smaller"), "\(r.stderr)")
        #expect(try fm.destinationOfSymbolicLink(atPath: link) == "demo.gif")
        let after = try fm.attributesOfItem(atPath: path)[.size] as! Int
        #expect(after < before)
        // OUT a link to a file elsewhere: written through the link.
        try fm.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: false)
        let target = dir.appendingPathComponent("sub/target.gif").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let outLink = dir.appendingPathComponent("out.gif").path
        try fm.createSymbolicLink(atPath: outLink, withDestinationPath: "sub/target.gif")
        let o = try CLI.run(["optimize", Repository.demo, outLink])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(try fm.destinationOfSymbolicLink(atPath: outLink) == "sub/target.gif")
        #expect(try ImageSource(path: target).frameCount == ImageSource(path: path).frameCount)
        #expect(try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("sub").path) == ["target.gif"])
    }

    @Test func aDamagedFileIsNotRewritten() throws {
        let (dir, path) = try copy("Animations/demo.gif")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["optimize", path])
        #expect(r.status == 1 && r.stderr.contains(path), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == bytes.count / 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == 1)
    }
}
