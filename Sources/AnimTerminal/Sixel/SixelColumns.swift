import AnimKit

/// Straightens colour boundaries inside sixel bands: a pixel takes the
/// register of the pixel above it in its band of six rows when that
/// register's colour is within `tolerance` of its own (under the palette
/// matcher's weighted distance, `PaletteMatcher.distance`, so that a pixel
/// is never moved further than the quantiser's own nearest colours lie
/// apart). Only for quantised colours (`SixelBackend`):
/// where every colour has its register the picture stays exact.
///
/// A sixel is one register's six pixels of a column. Where a boundary
/// between two registers crosses a band on a slant (any smooth gradient
/// not aligned to the rows), every column it crosses costs a partial
/// sixel in each register, written out one by one, and the two registers
/// overlap, so the second needs a pass of its own or a skip. Straightened,
/// the columns are whole sixels of one register, written as runs
/// (`!n~`) one register after the other: fewer bytes on smooth gradients
/// (`Tools/bench/graphics/run.py --modes sixel`, the 720p gradient). A
/// pixel moves only to a colour as near as two neighbouring colours of a
/// smooth palette, so edges, text and noise (whose colours are far apart)
/// keep their nearest colours.
enum SixelColumns {
    /// The weighted distance within which a pixel takes the register
    /// above: 432, what 12 levels of plain RGB distance (144 squared)
    /// weigh on average (the weights sum to 9 over three channels). On the
    /// 720p gradient (256 quantised colours, neighbours about 8–10 levels
    /// apart) it takes off a good part of the bytes for a small loss of
    /// PSNR, still well above chafa's. Tried in plain RGB: a much smaller
    /// distance took off little; a larger one took off more but lost more
    /// PSNR, with drips down the bands' slanted boundaries
    /// (`Tools/bench/graphics/run.py --modes sixel`).
    static let tolerance: Int32 = 432

    /// Straightens the bands of `tile` within `indices` (rows `stride` wide,
    /// registers or `SixelEncoder.none`), whose pixels' own colours are
    /// `keys` (0: not drawn) and registers' colours `colors`.
    ///
    /// A level boundary moves too (to its band's top), though its sixels
    /// cost nothing more (they repeat column after column); keeping level
    /// stretches as they were lost most of the gain on the gradient
    /// (`Tools/bench/graphics/run.py --modes sixel`), since its boundaries
    /// are shallow slants made of level stretches. What a pixel can lose
    /// is bounded all the same: `tolerance`.
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
