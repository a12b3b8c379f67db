import AnimKit
import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26: Ctrl-C in the middle of `encode` left the progress line
/// unended (the next prompt was drawn after it). Now the signal ends it,
/// and removes the temporary file as before.
struct ProgressLineTests {
    @Test func ctrlCEndsTheProgressLine() throws {
        let frames = try TempDirectory()
        for t in 0..<150 {
            let image = RGBAImage.drawn(width: 320, height: 240) { x, y in
                (UInt8((x * 7 + t * 13) & 255), UInt8((y * 5 + x * t) & 255), UInt8((x ^ y ^ t) & 255), 255)
            }
            try PNGFile.write(image, to: frames.file(String(format: "f%03d.png", t)))
        }
        let out = try TempDirectory()
        let pty = try PseudoTerminal(columns: 120, rows: 30)
        // Standard output is a file: only the progress goes to the terminal.
        let log = FileHandle(forWritingAtPath: "/dev/null")!
        let (p, _) = try pty.launch(CLI.binary, ["encode", frames.path, out.file("x.gif")], output: log)
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "frames", seconds: 30), "no progress line: \(pty.text)")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        usleep(100_000)  // what the pty still holds
        #expect(pty.text.hasSuffix("\r\u{1B}[K"), "ends with \(pty.text.suffix(40).debugDescription)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }
}
