/// Whether a `FrameCursor` may allocate its canvas, decided before
/// anything is allocated from `DecodingLimits.maxMemory`.
enum CanvasAllowance {
    /// It may.
    case allowed
    /// It may not: decoding would not fit; every frame throws this.
    case refused(AnimError)
    /// A still shrunk as it decodes needs no canvas; should damaged data
    /// send it the usual way, the canvas would not fit, and it throws this.
    case onlyScaled(AnimError)
}
