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
        "Transcode": 8,
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
        #expect(Self.misplaced(files, layers) == [], "references that run upward or across, or folders in no layer")
        #expect(Set(files.map(\.folder)) == Set(layers.keys), "every folder of the table has files")
    }

    /// What is wrong with `files` laid out in `layers`: each folder in no
    /// layer, and each reference to a type of a higher layer or of another
    /// folder on the same layer, sorted.
    static func misplaced(_ files: [(folder: String, text: String)], _ layers: [String: Int]) -> [String] {
        var owner: [String: String] = [:]
        for (folder, text) in files {
            for name in topLevelTypes(in: text) { owner[name] = owner[name] ?? folder }
        }
        var wrong: Set<String> = []
        for (folder, text) in files {
            guard let layer = layers[folder] else {
                wrong.insert("\(folder) is in no layer: add it to the table")
                continue
            }
            for word in Set(words(in: text)) {
                guard let home = owner[word], home != folder, let theirs = layers[home], theirs >= layer else { continue }
                wrong.insert("\(folder) (layer \(layer)) names \(word) of \(home) (layer \(theirs))")
            }
        }
        return wrong.sorted()
    }

    /// The checker itself: an upward reference is found, one in a comment
    /// or a string is not.
    @Test func theCheckSeesReferences() {
        let text = "// ImageSource\nlet a = \"ImageSource\"\nstruct Local { let s: ImageSource }\n"
        #expect(Self.words(in: text).filter { $0 == "ImageSource" }.count == 1)
        #expect(Self.topLevelTypes(in: "public final class A {\n    struct Nested {}\n}\nenum B {}\n") == ["A", "B"])
    }

    /// Made-up files: Core naming a Source type (upward), one format
    /// naming another's type (across), a folder the table lacks; and
    /// references that are allowed (downward, inside a comment) are not
    /// reported.
    @Test func theCheckReportsMadeUpMisplacements() {
        let files: [(folder: String, text: String)] = [
            ("Core", "struct Value {}\nfunc f(_ s: Reader) {} // Parser is fine here\n"),
            ("Source", "final class Reader { let v: Value }\n"),
            ("Formats/GIF", "struct Parser { let p: PNGThing }\n"),
            ("Formats/PNG", "struct PNGThing { let v: Value }\n"),
            ("Extra", "enum Stray {}\n"),
        ]
        let layers = ["Core": 0, "Formats/GIF": 3, "Formats/PNG": 3, "Source": 5]
        #expect(
            Self.misplaced(files, layers) == [
                "Core (layer 0) names Reader of Source (layer 5)",
                "Extra is in no layer: add it to the table",
                "Formats/GIF (layer 3) names PNGThing of Formats/PNG (layer 3)",
            ])
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
