/// One image of a GIF file as found by the container parser: where its
/// bytes are and the Graphic Control Extension that applies to it.
struct GIFImageRecord: Sendable {
    /// Offset of the image separator (0x2C).
    var descriptorOffset: Int
    /// Offset of the LZW minimum code size byte that starts the data.
    var dataOffset = 0
    /// Offset just past the image's data sub-blocks (or the end of the file).
    var dataEnd: Int
    /// The rectangle as stored, which may reach outside the screen.
    var rect: Rect
    var interlaced: Bool
    /// Offset and entry count of the colour table that applies (the local
    /// one, else the global one); count 0 when there is none.
    var palette: (offset: Int, count: Int)
    /// Disposal method 0-7 from the GCE (0 when there is none).
    var disposal: Int = 0
    /// Delay in centiseconds from the GCE (0 when there is none).
    var delay: Int = 0
    /// The transparent colour index, when the GCE enables one.
    var transparentIndex: Int?
    var hasGCE = false
    /// False when the file ends inside this image's data.
    var complete = true

    var dispose: DisposeOp {
        switch disposal {
        case 2: return .background
        case 3...7: return .previous  // 4-7 are undefined; browsers treat them as 3
        default: return .none
        }
    }
}
