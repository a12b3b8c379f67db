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

    /// For decoding that holds `working` bytes, `composited` once it
    /// makes a canvas, within `budget`; the errors name `file`.
    init(working: Int, composited: Int, budget: Int, file: String) {
        func over(_ bytes: Int) -> AnimError { AnimError(file: file, LimitExceeded(.memory, value: bytes, maximum: budget)) }
        self = working > budget ? .refused(over(working)) : composited > budget ? .onlyScaled(over(composited)) : .allowed
    }
}
