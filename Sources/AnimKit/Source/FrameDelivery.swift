/// The canvas as `ImageSource` hands it out: as composited, downsampled to
/// the output size, or converted to sRGB (the canvas itself stays as stored).
struct FrameDelivery {
    /// The size frames are delivered at.
    let width: Int
    let height: Int
    let downsampler: Downsampler?
    /// Converts each frame to sRGB once composited (`ContainerIndex.convertToSRGB`).
    let colorTransform: ColorTransform?
    private let canvasWidth: Int, canvasHeight: Int
    /// The downsampled frame.
    private var output: [UInt8] = []
    /// `output` holds the still `deliverScaled` decoded: lent again as it is.
    private var holdsScaled = false
    /// Delivered when there is a transform and no downsampler.
    private var converted: ConvertedCanvas?
    /// Where the last render's last step gave the converted canvas its pixels
    /// already (decoded ahead).
    var placedConverted: Rect?

    init(canvasWidth: Int, canvasHeight: Int, width: Int, height: Int, colorTransform: ColorTransform?) {
        (self.canvasWidth, self.canvasHeight, self.width, self.height) = (canvasWidth, canvasHeight, width, height)
        self.colorTransform = colorTransform
        downsampler =
            (width, height) == (canvasWidth, canvasHeight)
            ? nil : Downsampler(sourceWidth: canvasWidth, sourceHeight: canvasHeight, width: width, height: height)
    }

    /// Lends `compositor`'s canvas as delivered to `body`; `changed`: what
    /// the last render changed (from which step, inside which rectangle).
    mutating func deliver<R>(
        _ compositor: Compositor, changed: (from: Int, rect: Rect)?, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        if downsampler == nil && colorTransform == nil { return try body(UnsafeRawBufferPointer(compositor.canvas)) }
        if let downsampler {
            if output.count != width * height * 4 { output = [UInt8](repeating: 0, count: width * height * 4) }
            let count = width * height
            return try output.withUnsafeMutableBytes { out in
                downsampler.run(UnsafeRawBufferPointer(compositor.canvas), into: out)
                colorTransform?.convert(out.baseAddress!, into: out.baseAddress!, count: count)
                return try body(UnsafeRawBufferPointer(out))
            }
        }
        let converted = convertedCanvas()
        converted.update(
            from: UnsafeRawBufferPointer(compositor.canvas), step: compositor.currentStep,
            changed: changed.map { (since: $0.from, rect: $0.rect) }, known: placedConverted)
        return try body(UnsafeRawBufferPointer(converted.pixels))
    }

    /// Lends to `body` the frame `decode` writes shrunk to the delivered size
    /// (`ScaledStepDecoder`), then converted to sRGB; nil, `body` not called,
    /// when `decode` returns false. The still is decoded once, then lent as is.
    mutating func deliverScaled<R>(
        _ decode: (UnsafeMutableRawBufferPointer) throws -> Bool, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        if holdsScaled { return try output.withUnsafeBytes { try body($0) } }
        if output.count != width * height * 4 { output = [UInt8](repeating: 0, count: width * height * 4) }
        let count = width * height
        let decoded = try output.withUnsafeMutableBytes { out in
            guard try decode(out) else { return false }
            colorTransform?.convert(out.baseAddress!, into: out.baseAddress!, count: count)
            return true
        }
        guard decoded else { return nil }
        holdsScaled = true
        return try output.withUnsafeBytes { try body($0) }
    }

    /// The converted canvas, made on first use.
    mutating func convertedCanvas() -> ConvertedCanvas {
        if converted == nil { converted = ConvertedCanvas(transform: colorTransform!, width: canvasWidth, height: canvasHeight) }
        return converted!
    }
}
