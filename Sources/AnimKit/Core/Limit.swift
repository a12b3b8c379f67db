/// One of ``DecodingLimits``' limits, named by its field.
///
/// A struct with named constants, not an enum, so that a limit added in
/// 2.x does not break a client's `switch` (which needs a `default`).
public struct Limit: Hashable, Sendable, CustomStringConvertible {
    /// The ``DecodingLimits`` field that sets it (`maxCanvasPixels`, …).
    public let field: String
    private init(_ field: String) { self.field = field }

    /// ``DecodingLimits/maxCanvasPixels``: the canvas's (or an output size's) pixels.
    public static let canvasPixels = Limit("maxCanvasPixels")
    /// ``DecodingLimits/maxPixelsPerByte``: canvas pixels for each byte of the file.
    public static let pixelsPerByte = Limit("maxPixelsPerByte")
    /// ``DecodingLimits/maxFrameCount``: frames in the file.
    public static let frameCount = Limit("maxFrameCount")
    /// ``DecodingLimits/maxDecodedBytes``: bytes the frames decode to, together.
    public static let decodedBytes = Limit("maxDecodedBytes")
    /// ``DecodingLimits/maxMemory``: the bytes decoding holds at once.
    public static let memory = Limit("maxMemory")

    /// Every limit, in the order above.
    public static let allCases: [Limit] = [.canvasPixels, .pixelsPerByte, .frameCount, .decodedBytes, .memory]

    /// The field's name.
    public var description: String { field }
}

/// A value went past a limit; it was refused before anything was allocated.
public struct LimitExceeded: AnimProblem {
    /// Which limit.
    public let limit: Limit
    /// The value asked for (`Int.max` where it overflowed).
    public let value: Int
    /// The limit's value.
    public let maximum: Int

    /// `value` is over `limit`'s `maximum`.
    public init(_ limit: Limit, value: Int, maximum: Int) {
        self.limit = limit
        self.value = value
        self.maximum = maximum
    }

    /// Which kind of problem this is.
    public var code: AnimError.Code { .limitExceeded }
    /// The problem in words, as messages give it.
    public var description: String {
        "\(limit) \(value) exceeds the limit of \(maximum) (raise it with DecodingLimits.\(limit))"
    }
}
