/// A full-canvas image: 8-bit RGBA, not premultiplied, rows top to bottom,
/// `width * 4` bytes a row.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// An image of `pixels`; throws an ``AnimError`` (file `<pixels>`,
    /// ``CommonProblem/pixelCount(bytes:width:height:needed:)``) unless
    /// `width` and `height` are not negative and `pixels` holds
    /// `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        let needed = Self.byteCount(width, height)  // nil for a negative side too
        guard pixels.count == needed else {
            let problem = CommonProblem.pixelCount(bytes: pixels.count, width: width, height: height, needed: needed)
            throw AnimError(file: "<pixels>", problem)
        }
        self.init(width: width, height: height, trusting: pixels)
    }

    /// An image of `pixels` the caller has sized itself (the package's
    /// decoders and tests): another count than `width * height * 4` is a
    /// programmer error, a precondition that stops the process.
    package init(width: Int, height: Int, trusting pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == Self.byteCount(width, height), "pixel buffer size does not match")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent black image. A negative size, or one whose bytes
    /// overflow `Int`, is a programmer error (a precondition).
    public init(width: Int, height: Int) {
        let count = Self.byteCount(width, height)
        precondition(width >= 0 && height >= 0 && count != nil, "RGBAImage: size \(width)x\(height)")
        self.init(width: width, height: height, trusting: [UInt8](repeating: 0, count: count ?? 0))
    }

    /// `width * height * 4`, or nil when it overflows or a side is negative.
    static func byteCount(_ width: Int, _ height: Int) -> Int? {
        guard width >= 0, height >= 0 else { return nil }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: 4)
        return o1 || o2 ? nil : bytes
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
            raw.bindMemory(to: UInt32.self).contains { $0 != 0 && $0 >> 24 == 0 }  // little-endian: alpha is the high byte
        }
        guard dirty else { return self }
        var copy = self
        copy.pixels.withUnsafeMutableBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for i in px.indices where px[i] >> 24 == 0 { px[i] = 0 }
        }
        return copy
    }
}
