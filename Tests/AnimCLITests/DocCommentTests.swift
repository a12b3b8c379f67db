import Foundation
import Testing

/// Every public declaration of the libraries has a `///` comment
/// (`Tools/docs/check-doc-comments.py`, which lists the ones missing).
struct DocCommentTests {
    @Test func everyPublicSymbolIsDocumented() throws {
        let (status, output) = try CLI.tool(["python3", "Tools/docs/check-doc-comments.py"])
        #expect(status == 0, "\(output.suffix(4000))")
        #expect(output.contains("every public declaration is documented"))
    }
}
