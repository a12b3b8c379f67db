import Foundation
import Testing

/// Every public declaration of the libraries has a `///` comment
/// (`Tools/docs/check-doc-comments.py`, which lists the ones missing).
struct DocCommentTests {
    @Test func everyPublicSymbolIsDocumented() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "Tools/docs/check-doc-comments.py"]
        p.currentDirectoryURL = CLI.repo
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(output.suffix(4000))")
        #expect(output.contains("every public declaration is documented"))
    }
}
