/// The pixel side of an edit: a crop, then a new size, resampled by
/// `filter` in premultiplied alpha (transparent pixels do not tint the
/// edges of opaque ones).
public struct FrameGeometry: Equatable, Sendable {
    /// How the output size is given.
    public enum Size: Equatable, Sendable {
        /// Exactly this size; a nil side keeps the aspect ratio.
        case resize(width: Int?, height: Int?)
        /// The largest size inside the box that keeps the aspect ratio,
        /// never larger than the frame.
        case fit(width: Int, height: Int)
        /// Both sides times the factor, rounded, at least 1.
        case scale(Double)
    }

    /// The filter a change of size uses.
    public enum Filter: String, Equatable, Sendable, CaseIterable {
        /// Area averaging (Pillow's BOX; `Downsampler`): each output pixel
        /// the mean of the source pixels it covers, so nothing aliases;
        /// growing repeats pixels (pixel art stays sharp).
        case box
        /// Lanczos, three lobes (Pillow's LANCZOS; `LanczosResampler`):
        /// sharper when shrinking, interpolates when growing.
        case lanczos
    }

    /// The part of the canvas kept, in canvas pixels (nil: all of it).
    public var crop: Rect?
    /// The output size (nil: the crop's).
    public var size: Size?
    /// The filter used when the size changes (default Lanczos).
    public var filter: Filter

    /// A crop and a size; nil for either leaves it as it is.
    public init(crop: Rect? = nil, size: Size? = nil, filter: Filter = .lanczos) {
        (self.crop, self.size, self.filter) = (crop, size, filter)
    }

    /// What is wrong with a geometry for a canvas.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The crop rectangle reaches outside the canvas.
        case cropOutside(Rect, canvasWidth: Int, canvasHeight: Int)
        /// A size of zero pixels across or down.
        case emptySize

        /// What is wrong, in words.
        public var description: String {
            switch self {
            case .cropOutside(let r, let w, let h):
                return "the crop \(r.width)x\(r.height)+\(r.x)+\(r.y) is not inside the \(w)x\(h) canvas"
            case .emptySize: return "the size must be at least 1x1"
            }
        }
    }

    /// The crop and output size for a `width`×`height` canvas.
    public func resolve(width: Int, height: Int) throws(Problem) -> (crop: Rect, width: Int, height: Int) {
        let canvas = Rect(x: 0, y: 0, width: width, height: height)
        let crop = self.crop ?? canvas
        guard crop.width > 0, crop.height > 0, crop.x >= 0, crop.y >= 0, crop.x + crop.width <= width,
            crop.y + crop.height <= height
        else { throw .cropOutside(crop, canvasWidth: width, canvasHeight: height) }
        let (w, h) = (Double(crop.width), Double(crop.height))
        switch size {
        case nil, .resize(nil, nil):
            return (crop, crop.width, crop.height)
        case .resize(let rw?, let rh?):
            guard rw > 0, rh > 0 else { throw .emptySize }
            return (crop, rw, rh)
        case .resize(let rw?, nil):
            guard rw > 0 else { throw .emptySize }
            return (crop, rw, max(1, Int((h * Double(rw) / w).rounded())))
        case .resize(nil, let rh?):
            guard rh > 0 else { throw .emptySize }
            return (crop, max(1, Int((w * Double(rh) / h).rounded())), rh)
        case .fit(let bw, let bh):
            guard bw > 0, bh > 0 else { throw .emptySize }
            let fitted = Downsampler.fit(width: crop.width, height: crop.height, maxWidth: bw, maxHeight: bh)
            return (crop, fitted.width, fitted.height)
        case .scale(let f):
            guard f > 0, f.isFinite else { throw .emptySize }
            return (crop, max(1, Int((w * f).rounded())), max(1, Int((h * f).rounded())))
        }
    }

    /// Whether the geometry leaves a `width`×`height` frame as it is.
    public func isIdentity(width: Int, height: Int) -> Bool {
        guard let r = try? resolve(width: width, height: height) else { return false }
        return r.crop == Rect(x: 0, y: 0, width: width, height: height) && r.width == width && r.height == height
    }
}

/// Applies a resolved `FrameGeometry` to frames of one canvas size: one
/// `Downsampler` made once, used for every frame (and from any thread).
public final class FrameReshaper: Sendable {
    /// The rectangle of the canvas kept.
    public let crop: Rect
    /// Output width.
    public let width: Int
    /// Output height.
    public let height: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let resampler: (any PixelResampler)?

    /// `geometry` resolved for frames of `width`×`height`.
    public init(_ geometry: FrameGeometry, width: Int, height: Int) throws(FrameGeometry.Problem) {
        let r = try geometry.resolve(width: width, height: height)
        (crop, self.width, self.height, sourceWidth, sourceHeight) = (r.crop, r.width, r.height, width, height)
        if r.width == r.crop.width && r.height == r.crop.height {
            resampler = nil
        } else if geometry.filter == .lanczos, r.crop.width <= r.width * LanczosResampler.maxShrink,
            r.crop.height <= r.height * LanczosResampler.maxShrink
        {
            // (Past a hundredfold shrink the box filter: as good there.)
            resampler = LanczosResampler(sourceWidth: r.crop.width, sourceHeight: r.crop.height, width: r.width, height: r.height)
        } else {
            resampler = Downsampler(sourceWidth: r.crop.width, sourceHeight: r.crop.height, width: r.width, height: r.height)
        }
    }

    /// `image` cropped and resized. An image of another size than the one
    /// given at `init` is a programmer error (a precondition).
    public func apply(_ image: RGBAImage) -> RGBAImage {
        precondition(image.width == sourceWidth && image.height == sourceHeight, "FrameReshaper: frame size changed")
        let cropped = image.cropped(to: crop)
        guard let resampler else { return cropped }
        var out = RGBAImage(width: width, height: height)
        cropped.pixels.withUnsafeBytes { src in
            out.pixels.withUnsafeMutableBytes { resampler.run(src, into: $0) }
        }
        return out
    }
}
