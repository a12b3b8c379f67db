/// One drawing step of the compositor: a GIF image, or an APNG or WebP frame.
/// A displayed frame is one step, or for GIF possibly several.
struct Step: Sendable {
    /// The area drawn, clipped to the canvas.
    var rect: Rect
    var dispose: DisposeOp
    var blend: BlendOp
    /// False only when the codec knows every pixel is opaque.
    var hasAlpha: Bool
    /// Set by `Step.markKeyframes`: composited without earlier steps.
    var isKey = false
    /// False when the file ends inside the step's data: what there is of
    /// it is drawn, the rest of its area keeps what was there.
    var isComplete = true
}

extension Step {
    /// Marks the steps that do not depend on the canvas before them, with the
    /// rule of libwebp's `IsKeyFrame` (src/demux/anim_decode.c), extended for
    /// dispose-previous, which WebP does not have:
    /// - the first step;
    /// - a step covering the canvas that is opaque or replaces (blend source);
    /// - a step after one disposed to background that covered the canvas or
    ///   was itself a keyframe.
    /// A step disposed to previous is never a keyframe after the first: what
    /// follows it needs the canvas from before it.
    static func markKeyframes(_ steps: inout [Step], canvas: Rect) {
        for i in steps.indices {
            let s = steps[i]
            let covers = s.rect == canvas && (!s.hasAlpha || s.blend == .source)
            let cleared = i > 0 && steps[i - 1].dispose == .background && (steps[i - 1].rect == canvas || steps[i - 1].isKey)
            steps[i].isKey = i == 0 || (s.dispose != .previous && (covers || cleared))
        }
    }
}
