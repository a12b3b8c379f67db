import AnimKit

/// The pixels a droppable sixel graphic holds (`SixelBackend`, layers):
/// drawn again by every image until the next keyframe, and their cost.
struct SixelUnsettled {
    /// Per pixel of the frame, row by row: unsettled.
    var mask: [Bool] = []
    var count = 0
    /// The area every image covers, from the top row down.
    var rect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Bytes of the last keyframe, and those spent since redrawing
    /// unchanged pixels.
    var keyframeBytes = 0
    var redrawnBytes = 0

    /// Every pixel of a frame of `pixels` settled.
    mutating func settleAll(_ pixels: Int) {
        mask.removeAll(keepingCapacity: true)
        mask.append(contentsOf: repeatElement(false, count: pixels))
        count = 0
    }

    /// Only the first `pixels` (the top row of cells of a keyframe) unsettled.
    mutating func unsettleFirst(_ pixels: Int) {
        for i in mask.indices { mask[i] = i < pixels }
        count = pixels
    }
}
