/// A full-canvas image: 8-bit RGBA, not premultiplied, rows top to bottom,
/// `width * 4` bytes a row.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// An image of `pixels`; traps unless they are `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer size does not match")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent black image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The RGBA of the pixel at (x, y).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

extension RGBAImage {
    /// The image with every fully transparent pixel transparent black
    /// (the colour under alpha 0 never shows); `self`, uncopied, when
    /// there is none to change.
    func invisibleCleared() -> RGBAImage {
        let dirty = pixels.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt32.self).contains { $0 != 0 && $0 >> 24 == 0 }  // alpha: the high byte
        }
        guard dirty else { return self }
        var copy = self
        copy.pixels.withUnsafeMutableBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)  // little-endian: alpha is the high byte
            for i in px.indices where px[i] >> 24 == 0 { px[i] = 0 }
        }
        return copy
    }
}
