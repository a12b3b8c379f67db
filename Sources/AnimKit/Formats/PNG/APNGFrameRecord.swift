/// One frame of an APNG (or the single image of a PNG) as indexed: its
/// control values and where its compressed data is.
struct APNGFrameRecord {
    var rect: Rect
    var delayNumerator: Int
    var delayDenominator: Int
    var dispose: DisposeOp
    var blend: BlendOp
    var segments: [PNGBridge.Segment] = []
    /// Offset of the frame's fcTL (or first IDAT), for messages.
    var offset: Int

    /// The stored delay; a denominator of 0 means 100 (APNG spec).
    var delay: Duration {
        let den = delayDenominator == 0 ? 100 : delayDenominator
        return .nanoseconds((Int64(delayNumerator) * 1_000_000_000 + Int64(den / 2)) / Int64(den))
    }
}

/// The PNG header fields every frame shares.
struct PNGHeader {
    var width: Int
    var height: Int
    var bitDepth: UInt8
    var colorType: UInt8
    var interlace: UInt8
    /// Offsets of the PLTE and tRNS chunks, copied into each repacked frame.
    var sharedChunks: [PNGChunk] = []

    var hasAlpha: Bool {
        colorType == 4 || colorType == 6 || sharedChunks.contains { $0.type == .tRNS }
    }

    /// True for a combination of colour type and bit depth PNG allows.
    var isValid: Bool {
        switch colorType {
        case 0: return [1, 2, 4, 8, 16].contains(bitDepth)
        case 3: return [1, 2, 4, 8].contains(bitDepth)
        case 2, 4, 6: return bitDepth == 8 || bitDepth == 16
        default: return false
        }
    }
}
