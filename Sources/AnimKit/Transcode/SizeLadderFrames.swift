/// The frames each setting of the size ladder writes: the source through
/// the transcode's edits, with the setting's frame rate and scale. Frames
/// are kept between attempts that read the same frames (quality and colours
/// change only the encoding): decoded and edited once, while they fit
/// `budget` bytes.
///
/// Not `Sendable`: it reads its source's frames in the order asked.
final class SizeLadderFrames {
    static let budget = 256 << 20
    /// The source through the transcode's edits alone.
    private let plain: EditedFrames
    private let edits: FrameEdits
    private let durations: Bool
    /// The play's mean frame rate, which a step's rate is a part of.
    private let meanRate: Double
    private var memo: (rate: Double, scale: Double, frames: [FrameReader.Frame])?

    init(_ plain: EditedFrames, edits: FrameEdits, durations: Bool) {
        let total = plain.length.components
        let seconds = Double(total.seconds) + Double(total.attoseconds) / 1e18
        meanRate = edits.fps ?? (seconds > 0 ? Double(plain.count) / seconds : 10)
        (self.plain, self.edits, self.durations) = (plain, edits, durations)
    }

    /// The frames of setting `s`, and how many.
    func reader(for s: SizeSetting) throws -> (count: Int, frames: FrameReader) {
        if memo?.rate != s.rate || memo?.scale != s.scale {
            let edited = try EditedFrames(plain.source, edits: edits(for: s))
            let frame = { @Sendable [durations] in try edited.frame(at: $0, timed: durations) }
            guard edited.count * max(edited.width * edited.height * 4, 1) <= Self.budget else {
                return (edited.count, FrameReader(read: frame))
            }
            memo = (s.rate, s.scale, try (0..<edited.count).map(frame))
        }
        let frames = memo?.frames ?? []
        return (frames.count, FrameReader { frames[$0] })
    }

    private func edits(for s: SizeSetting) -> FrameEdits {
        var e = edits
        if s.rate < 1 { e.fps = meanRate * s.rate }
        if s.scale < 1 {
            e.geometry = FrameGeometry(
                crop: plain.reshaper.crop,
                size: .resize(
                    width: max(1, Int((Double(plain.width) * s.scale).rounded())),
                    height: max(1, Int((Double(plain.height) * s.scale).rounded()))),
                filter: edits.geometry.filter)
        }
        return e
    }
}
