import AnimKit
import Foundation

/// Other programs' decoders on what anim writes: Pillow (Debian's
/// `/usr/bin/python3` with `python3-pil`) and ffmpeg, both installed by
/// `Tools/setup.sh`. Each gives every frame as it composites it, RGBA.
public enum OtherDecoders {
    /// Pillow's frames of `data` (`ImageSequence`, each converted to RGBA).
    public static func pillow(_ data: [UInt8]) throws -> [RGBAImage] {
        let script = """
            import sys
            from PIL import Image, ImageSequence
            im = Image.open(sys.argv[1])
            out = sys.stdout.buffer
            for f in ImageSequence.Iterator(im):
                f = f.convert("RGBA")
                out.write(f.width.to_bytes(4, "little") + f.height.to_bytes(4, "little") + f.tobytes())
            """
        return try withFile(data) { path in
            let r = try Command.run("/usr/bin/python3", ["-c", script, path])
            guard r.status == 0 else { throw Failure("Pillow: \(r.errorText)") }
            var frames: [RGBAImage] = []
            var at = 0
            let bytes = [UInt8](r.output)
            while at + 8 <= bytes.count {
                let w = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
                let h = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16
                at += 8
                guard at + 4 * w * h <= bytes.count else { throw Failure("Pillow: short output") }
                frames.append(RGBAImage(width: w, height: h, trusting: Array(bytes[at..<(at + 4 * w * h)])))
                at += 4 * w * h
            }
            return frames
        }
    }

    /// ffmpeg's frames of `data`, every frame it decodes (`-fps_mode
    /// passthrough`), `width` × `height` each.
    public static func ffmpeg(_ data: [UInt8], width: Int, height: Int) throws -> [RGBAImage] {
        try withFile(data) { path in
            let r = try Command.run(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
            guard r.status == 0 else { throw Failure("ffmpeg: \(r.errorText)") }
            let bytes = [UInt8](r.output)
            let size = 4 * width * height
            return stride(from: 0, to: bytes.count - size + 1, by: size).map {
                RGBAImage(width: width, height: height, trusting: Array(bytes[$0..<($0 + size)]))
            }
        }
    }

    /// Where anim, Pillow and ffmpeg do not all show `frames` for `data`
    /// (a GIF or APNG): "NAME: N frames" or "NAME: frame I"; empty when
    /// every decoder shows every frame exactly.
    public static func mismatches(_ data: [UInt8], _ frames: [RGBAImage]) throws -> [String] {
        let anim = allFrames(try ImageSource(data: data)).frames
        let decoders = [
            ("anim", anim), ("Pillow", try pillow(data)),
            ("ffmpeg", try ffmpeg(data, width: frames[0].width, height: frames[0].height)),
        ]
        var out: [String] = []
        for (name, decoded) in decoders {
            if decoded.count != frames.count { out.append("\(name): \(decoded.count) frames") }
            for (i, (a, b)) in zip(frames, decoded).enumerated() where differences(a, b) != 0 {
                out.append("\(name): frame \(i)")
            }
        }
        return out
    }

    /// Pixels that differ between `a` and `b`, transparent ones (alpha 0 in
    /// `a`) compared by their alpha only; every pixel when the sizes differ.
    public static func differences(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.width * a.height }
        var n = 0
        for p in stride(from: 0, to: a.pixels.count, by: 4) {
            let same =
                a.pixels[p + 3] == 0 ? b.pixels[p + 3] == 0 : a.pixels[p..<(p + 4)].elementsEqual(b.pixels[p..<(p + 4)])
            if !same { n += 1 }
        }
        return n
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    private static func withFile<T>(_ data: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "anim-other-\(getpid())-\(UUID().uuidString)"
        try Data(data).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        return try body(path)
    }
}
