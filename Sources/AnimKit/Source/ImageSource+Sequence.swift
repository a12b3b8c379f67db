extension ImageSource {
    /// The frames as a collection to iterate: each element carries its
    /// index and `FrameInfo`, and decodes only when `image()` is called
    /// (in order, each decode continues from the canvas the previous one
    /// left, so a loop over every frame decodes each once).
    ///
    /// ```swift
    /// for frame in source.images {
    ///     let image = try frame.image()
    ///     print(frame.index, frame.info.duration, image.width)
    /// }
    /// ```
    public var images: FrameImages { FrameImages(source: self) }
}

/// The frames of an `ImageSource`, decoded lazily (`ImageSource.images`).
public struct FrameImages: RandomAccessCollection, Sendable {
    let source: ImageSource

    /// The first frame's index: 0.
    public var startIndex: Int { 0 }
    /// The number of frames (one past the last index).
    public var endIndex: Int { source.frameCount }
    /// Frame `position`, not yet decoded. A position outside
    /// `startIndex..<endIndex` is a programmer error (a precondition), as
    /// for an `Array`.
    public subscript(position: Int) -> FrameImage {
        precondition(position >= 0 && position < endIndex, "FrameImages: index \(position) out of range")
        return FrameImage(source: source, index: position)
    }
}

/// One frame of an `ImageSource`, not yet decoded.
public struct FrameImage: Sendable {
    let source: ImageSource
    /// The frame's position in the animation.
    public let index: Int
    /// Its timing, rectangle and disposal.
    public var info: FrameInfo { source.frames[index] }
    /// False for a frame the file ends inside (see `FrameInfo.isComplete`).
    public var isComplete: Bool { source.frames[index].isComplete }
    /// Decodes the frame: the composited canvas (or the size the source
    /// delivers), as `ImageSource.frame(at:)`.
    public func image() throws -> RGBAImage { try source.frame(at: index) }
}
