import Foundation
import Testing

/// The layers of AnimKit and AnimTerminal (ARCHITECTURE.md): a folder may
/// name types of its own folder and of lower layers, never of a higher
/// layer, and never of another folder on its own layer (the formats do not
/// know each other, nor do the pixel helpers or the terminal protocols).
/// The check reads the Swift files as text: the types each folder declares
/// at top level, then every capitalised word outside comments and strings
/// that is one of them. (Across targets, the module graph enforces it.)
struct LayeringTests {
    /// AnimKit's folder → layer. Formats/Formats.swift, the list of
    /// formats, is its own layer between the formats and the rest.
    static let animKit: [String: Int] = [
        "Core": 0,
        "Composite": 1, "Color": 1, "Resample": 1, "Quantize": 1,
        "Codec": 2,
        "Formats/GIF": 3, "Formats/PNG": 3, "Formats/WebP": 3,
        "Formats": 4,
        "Source": 5,
        "Cache": 6, "Incremental": 6, "Encode": 6,
        "Playback": 7, "Edit": 7,
    ]

    /// AnimTerminal's folder → layer.
    static let animTerminal: [String: Int] = [
        "Terminal": 0, "Detect": 1, "Backend": 2,
        "Text": 3, "Sixel": 3, "Kitty": 3, "ITerm2": 3,
        "Player": 4,
    ]

    @Test(arguments: [("AnimKit", animKit), ("AnimTerminal", animTerminal)])
    func everyReferenceRunsDownwards(target: String, layers: [String: Int]) throws {
        let files = try Self.swiftFiles(target)
        var owner: [String: String] = [:]
        for (folder, text) in files {
            for name in Self.topLevelTypes(in: text) { owner[name] = owner[name] ?? folder }
        }
        var wrong: [String] = []
        for (folder, text) in files {
            let layer = try #require(layers[folder], "\(folder) is in no layer: add it to the table")
            for word in Set(Self.words(in: text)) {
                guard let home = owner[word], home != folder, let theirs = layers[home] else { continue }
                if theirs >= layer {
                    wrong.append("\(folder) (layer \(layer)) names \(word) of \(home) (layer \(theirs))")
                }
            }
        }
        #expect(wrong.sorted() == [], "references that run upward or across")
        #expect(Set(files.map(\.folder)) == Set(layers.keys), "every folder of the table has files")
    }

    /// The checker itself: an upward reference is found, one in a comment
    /// or a string is not.
    @Test func theCheckSeesReferences() {
        let text = "// ImageSource\nlet a = \"ImageSource\"\nstruct Local { let s: ImageSource }\n"
        #expect(Self.words(in: text).filter { $0 == "ImageSource" }.count == 1)
        #expect(Self.topLevelTypes(in: "public final class A {\n    struct Nested {}\n}\nenum B {}\n") == ["A", "B"])
    }

    /// (folder, text) for every Swift file of `target`.
    static func swiftFiles(_ target: String) throws -> [(folder: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/\(target)").standardized
        let found = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = found?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let parts = url.standardized.path.dropFirst(root.path.count + 1).split(separator: "/").dropLast()
            files.append(
                (
                    parts.prefix(parts.first == "Formats" ? 2 : 1).joined(separator: "/"),
                    try String(contentsOf: url, encoding: .utf8)
                ))
        }
        return files
    }

    /// Types declared at the start of a line (not nested).
    static func topLevelTypes(in text: String) -> [String] {
        let decl = try! Regex(
            #"^(?:(?:public|package|internal|fileprivate|private|final|indirect|@\w+(?:\([^)]*\))?)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#
        ).anchorsMatchLineEndings()
        return stripped(text).matches(of: decl).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// Capitalised words outside comments and string literals.
    static func words(in text: String) -> [String] {
        stripped(text).matches(of: try! Regex(#"\b[A-Z]\w*"#)).map { String($0.output[0].substring ?? "") }
    }

    static func stripped(_ text: String) -> String {
        var s = text
        for pattern in [#"/\*[\s\S]*?\*/"#, #"//[^\n]*"#, #"\"\"\"[\s\S]*?\"\"\""#, #""(?:\\.|[^"\\\n])*""#] {
            s = s.replacing(try! Regex(pattern), with: "\"\"")
        }
        return s
    }
}
