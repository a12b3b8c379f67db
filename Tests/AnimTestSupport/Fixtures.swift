import AnimKit
import Foundation

/// The repository the tests were built from, and the files in it they read.
public enum Repository {
    /// The repository's root (this file is `Tests/AnimTestSupport/Fixtures.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `relative` in the repository.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The built-in demo (`Animations/demo.gif`).
    public static var demo: String { path("Animations/demo.gif") }
}

/// The test fixtures (`Tests/AnimKitTests/Fixtures`), read where they are.
public enum Fixtures {
    public static let root = Repository.root.appendingPathComponent("Tests/AnimKitTests/Fixtures")

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The path of the fixture `relative`.
    public static func path(_ relative: String) -> String { url(relative).path }

    public static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relative)))
    }

    /// The files of `folder` ending in `.ext`, sorted, as fixture names.
    public static func list(_ folder: String, ext: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { folder + "/" + $0 }
    }

    /// Every animation fixture in the repository, all formats.
    public static var allAnimations: [String] {
        list("gif-suite", ext: "gif") + list("apng-suite", ext: "png") + list("webp", ext: "webp")
            + list("extra", ext: "gif") + list("extra", ext: "png")
    }

    /// The WebP and the extra fixtures, and the GIF and APNG suite files
    /// that exercise disposal, interlace and blending: what the tests that
    /// cut or feed files piece by piece run over (with `more`).
    public static func sample(_ more: [String]) -> [String] {
        list("webp", ext: "webp") + list("extra", ext: "png") + list("extra", ext: "gif")
            + [
                "gif-suite/animation.gif", "gif-suite/dispose-restore-previous.gif", "gif-suite/interlace.gif",
                "apng-suite/007.png", "apng-suite/016.png", "apng-suite/025.png",
            ] + more
    }

    /// GIF89a's reading: images without delay drawn with the next frame
    /// (`--merge-zero-delay`), every image clipped to the logical screen.
    public static let merging: DecodingOptions = {
        var options = DecodingOptions()
        options.mergesZeroDelayImages = true
        options.growsCanvasToFirstImage = false
        return options
    }()

    public static func source(_ relative: String, options: DecodingOptions = DecodingOptions()) throws -> ImageSource {
        try ImageSource(data: try bytes(relative), name: relative, options: options)
    }
}

/// Decodes every frame, in order; a decode error ends the list.
public func allFrames(_ source: ImageSource) -> (frames: [RGBAImage], error: Error?) {
    var out: [RGBAImage] = []
    for i in 0..<source.frameCount {
        do { out.append(try source.frame(at: i)) } catch { return (out, error) }
    }
    return (out, nil)
}
