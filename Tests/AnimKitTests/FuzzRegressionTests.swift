import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Every input the fuzzers found (Fixtures/fuzz-decode, fuzz-encode),
/// replayed through the same checks as `Tools/fuzz`: each ran into a
/// crash, a leak, a hang or a failed check before its fix, and must now
/// pass (a failed check traps, so a regression stops the test run, with
/// the check's message).
struct FuzzRegressionTests {
    static func findings(_ folder: String) -> [String] {
        let dir = Fixtures.root.path + "/" + folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { dir + "/" + $0 }
    }

    @Test(arguments: findings("fuzz-decode"))
    func decodeFinding(_ path: String) throws {
        FuzzChecks.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(arguments: findings("fuzz-encode"))
    func encodeFinding(_ path: String) throws {
        FuzzChecks.encode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(arguments: findings("fuzz-lzw"))
    func lzwFinding(_ path: String) throws {
        FuzzChecks.lzw(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The folders are there and read (a typo in a path would make the
    /// tests above vanish rather than fail).
    @Test func findingsAreEnumerated() {
        #expect(FileManager.default.fileExists(atPath: Fixtures.root.path + "/fuzz-decode/README.md"))
        #expect(FileManager.default.fileExists(atPath: Fixtures.root.path + "/fuzz-encode/README.md"))
        #expect(FileManager.default.fileExists(atPath: Fixtures.root.path + "/fuzz-lzw/README.md"))
        #expect(Self.findings("fuzz-encode").count >= 3 && Self.findings("fuzz-decode").count >= 1)
        #expect(Self.findings("fuzz-lzw").count >= 1)
    }
}
