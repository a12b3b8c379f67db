import Foundation

@testable import AnimKit

/// Locates the test fixtures copied into the test bundle.
enum Fixtures {
    static var root: URL { Bundle.module.resourceURL!.appendingPathComponent("Fixtures") }

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relative)))
    }

    static func list(_ folder: String, ext: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { folder + "/" + $0 }
    }

    /// Every animation fixture in the repository, all formats.
    static var allAnimations: [String] {
        list("gif-suite", ext: "gif") + list("apng-suite", ext: "png") + list("webp", ext: "webp")
            + list("extra", ext: "gif") + list("extra", ext: "png")
    }

    /// GIF89a's reading: images without delay drawn with the next frame
    /// (`--merge-zero-delay`), every image clipped to the logical screen.
    static let merging: DecodingOptions = {
        var options = DecodingOptions()
        options.mergesZeroDelayImages = true
        options.growsCanvasToFirstImage = false
        return options
    }()

    static func source(_ relative: String, options: DecodingOptions = DecodingOptions()) throws -> ImageSource {
        try ImageSource(data: try bytes(relative), name: relative, options: options)
    }
}

/// Decodes every frame, in order; a decode error ends the list.
func allFrames(_ source: ImageSource) -> (frames: [RGBAImage], error: Error?) {
    var out: [RGBAImage] = []
    for i in 0..<source.frameCount {
        do { out.append(try source.frame(at: i)) } catch { return (out, error) }
    }
    return (out, nil)
}
