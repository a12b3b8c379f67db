import AnimTestSupport
import Foundation
import Testing

/// A separate package depends on AnimKit by URL, `from: "2.0.0"`, builds
/// in Swift 6 mode with no warning and runs every Swift snippet of the
/// README (`Tools/client/check.sh`). Skipped under a sanitizer: the client
/// builds AnimKit again, uninstrumented, and the plain run covers it.
struct ClientPackageTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ANIM_SANITIZER"] == nil))
    func readmeSnippetsBuildAndRunFromAVersionedDependency() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("anim-client-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let (status, output) = try await Command.offThePool { try CLI.tool(["bash", "Tools/client/check.sh", work.path]) }
        #expect(status == 0, "\(output.suffix(3000))")
        #expect(output.contains("resolved at 2.0.0"), "the dependency is taken by version")
        #expect(output.contains("every snippet ran"))
        #expect(!output.contains("warning:"))
        // The snippets did their work: the README's example wrote a WebP.
        #expect(output.contains("first frame 96"), "the streaming snippet saw the first frame")
    }
}
