import AnimTestSupport
import Foundation
import Testing

/// `anim` starts in about 5 ms (release build) because nothing it is made
/// of imports Foundation, whose libraries (ICU among them) took as long
/// again to load: previewers run it on every cursor move, and a tiny file
/// is mostly start-up. Only `AnimKitFoundation` may import it.
struct StartupTests {
    @Test func noModuleOfTheBinaryImportsFoundation() throws {
        var checked = 0
        for module in ["anim", "AnimKit", "AnimTerminal"] {
            let dir = Repository.root.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: dir.path))
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                let imports = text.split(separator: "\n").filter {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("import Foundation")
                }
                #expect(imports.isEmpty, "Sources/\(module)/\(file) imports Foundation")
                checked += 1
            }
        }
        #expect(checked > 100, "\(checked) files")
    }
}
