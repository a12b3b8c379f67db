/// Sixel colours are in percent (`#n;2;r;g;b`): 101 levels per channel.
/// Colours are moved onto that grid first, so colours the terminal cannot
/// tell apart share a register and a change it could not show is not sent.
enum SixelPercent {
    /// Level (0–255) → percent, rounded to nearest.
    static let percent: [UInt8] = (0...255).map { UInt8((Int($0) * 100 + 127) / 255) }

    /// Level → the level a terminal shows for its percent (`p·255/100`,
    /// rounded, as xterm, foot and mlterm read it).
    static let level: [UInt8] = (0...255).map { v in
        let p = (Int(v) * 100 + 127) / 255
        return UInt8((p * 255 + 50) / 100)
    }

    /// The key `0xFFRRGGBB` of a colour, on the percent grid.
    @inline(__always)
    static func key(_ r: UInt8, _ g: UInt8, _ b: UInt8, levels: UnsafeBufferPointer<UInt8>) -> UInt32 {
        0xFF00_0000 | UInt32(levels[Int(r)]) << 16 | UInt32(levels[Int(g)]) << 8 | UInt32(levels[Int(b)])
    }
}
