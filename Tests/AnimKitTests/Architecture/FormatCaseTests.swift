import Foundation
import Testing

/// Formats own their facts (ARCHITECTURE.md, "A new image format"): no
/// AnimKit file outside `Formats/` names a case of `ImageFormat` or
/// `OutputFormat` (`.gif`, `.png`, `.apng`, `.webp`); shared code asks the
/// format's `ImageCodec` instead. Read as text, as `LayeringTests` reads:
/// comments and string literals do not count, nor a member of the same
/// name (`options.gif`).
struct FormatCaseTests {
    @Test func noFormatCaseOutsideFormats() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/AnimKit").standardized
        let found = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(path: String, text: String)] = []
        while let url = found?.nextObject() as? URL {
            let path = String(url.standardized.path.dropFirst(root.path.count + 1))
            guard url.pathExtension == "swift", !path.hasPrefix("Formats/") else { continue }
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        #expect(files.count > 50, "the sources were found")
        #expect(Self.formatCases(in: files) == [], "format cases outside Formats/: ask the codec")
    }

    /// The checker itself: a case named outside `Formats/` is reported
    /// with its file and line; one in a comment or a string, or a member
    /// named like a format, is not.
    @Test func theCheckSeesFormatCases() {
        let text = """
            /* .webp in a
               comment */ let a = "a .gif"
            let b = options.gif.maxColors
            if format == .apng || OutputFormat.webp == f { }  // .png
            """
        #expect(
            Self.formatCases(in: [("Encode/Made.swift", text)]) == ["Encode/Made.swift:4: .apng", "Encode/Made.swift:4: .webp"])
    }

    /// "file:line: .case" for each format case in `files` (path, text).
    static func formatCases(in files: [(path: String, text: String)]) -> [String] {
        let pattern = try! Regex(
            #"(?:^|[^\w)\]?!])\.(gif|png|apng|webp)\b|\b(?:ImageFormat|OutputFormat)\.(gif|png|apng|webp)\b"#)
        var out: [String] = []
        for (path, text) in files {
            for (n, line) in linesKept(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for m in line.matches(of: pattern) {
                    let name = m.output[1].substring ?? m.output[2].substring ?? ""
                    out.append("\(path):\(n + 1): .\(name)")
                }
            }
        }
        return out.sorted()
    }

    /// `text` with comments and string literals emptied, their line breaks kept.
    static func linesKept(_ text: String) -> String {
        var s = text
        for pattern in [#"/\*[\s\S]*?\*/"#, #"//[^\n]*"#, #"\"\"\"[\s\S]*?\"\"\""#, #""(?:\\.|[^"\\\n])*""#] {
            s = s.replacing(try! Regex(pattern)) { m in
                "\"\"" + String(repeating: "\n", count: m.output[0].substring?.filter { $0 == "\n" }.count ?? 0)
            }
        }
        return s
    }
}
