import AnimKit

/// What a test that needed pixels and got none throws.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension RGBAImage {
    /// A `width`×`height` image drawn pixel by pixel, row by row:
    /// `pixel(x, y)` gives the pixel's red, green, blue and alpha.
    public static func drawn(width: Int, height: Int, _ pixel: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8))
        -> RGBAImage
    {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                (px[i], px[i + 1], px[i + 2], px[i + 3]) = pixel(x, y)
            }
        }
        return RGBAImage(width: width, height: height, trusting: px)
    }
}

extension ImageDestination {
    /// `frames` encoded in memory as `format`, each shown for `duration`.
    public static func encode(
        _ frames: [RGBAImage], as format: OutputFormat, options: EncodingOptions = EncodingOptions(), duration: Duration
    ) throws -> [UInt8] {
        let out = try ImageDestination(format: format, options: options)
        for f in frames { try out.add(f, duration: duration) }
        try out.finish()
        guard let data = out.data else { throw TestFailure("no bytes in memory after finish()") }
        return data
    }
}
