import AnimKit

/// Straightens colour boundaries inside sixel bands: a pixel takes the
/// register of the pixel above it in its band of six rows when that
/// register's colour is within `tolerance` of its own
/// (`PaletteMatcher.distance`). Only for quantised colours: where every
/// colour has its register the picture stays exact.
///
/// A boundary crossing a band on a slant (a smooth gradient) costs a
/// partial sixel in each register for every column it crosses, and a pass
/// or skip for the overlap; straightened, the columns are whole sixels
/// written as runs (`!n~`). Edges, text and noise, whose colours lie
/// further apart than neighbours of a smooth palette, keep their colours.
enum SixelColumns {
    /// The weighted distance within which a pixel takes the register
    /// above: what 12 levels of plain RGB distance weigh on average (144 ×
    /// weights summing to 9 / 3). Neighbours of a 256-colour gradient lie
    /// 8–10 levels apart; much less saved little, more lost PSNR with drips
    /// down the slanted boundaries (`Tools/bench/graphics/run.py`).
    static let tolerance: Int32 = 432

    /// Straightens the bands of `tile` within `indices` (rows `stride` wide,
    /// registers or `SixelEncoder.none`), whose pixels' own colours are
    /// `keys` (0: not drawn) and registers' colours `colors`. Level
    /// boundaries move too: a gradient's shallow slants are made of level
    /// stretches, and keeping them lost most of the gain.
    static func straighten(
        _ indices: UnsafeMutableBufferPointer<UInt16>, keys: UnsafeBufferPointer<UInt32>, stride: Int, tile: Rect,
        colors: UnsafeBufferPointer<UInt32>
    ) {
        let tolerance = Self.tolerance
        let none = SixelEncoder.none
        for y in tile.y..<(tile.y + tile.height) where (y - tile.y) % 6 != 0 {
            var i = y * stride + tile.x
            for _ in 0..<tile.width {
                let above = indices[i - stride]
                let own = indices[i]
                if own != above, own != none, above != none,
                    PaletteMatcher.distance(keys[i], colors[Int(above)]) <= tolerance
                {
                    indices[i] = above
                }
                i += 1
            }
        }
    }
}
