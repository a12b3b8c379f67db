/// The nearest palette colour to a colour, under the quantiser's weighted
/// distance, with a cache of recent answers: the mapping half of the GIF
/// writer's quantiser (`PaletteSearch`). Not `Sendable`.
public final class PaletteMatcher {
    let search: PaletteSearch
    /// The palette's colours, `0x??RRGGBB` (1…65536 of them).
    public let colors: [UInt32]

    /// A matcher for `colors` (not empty).
    public init(_ colors: [UInt32]) {
        self.colors = colors
        search = PaletteSearch(colors, cached: true)
    }

    /// The index in `colors` of the colour nearest to `key`'s RGB, through
    /// the cache of recent answers.
    @inline(__always)
    public func index(of key: UInt32) -> Int {
        search.nearestCached(Int32((key >> 16) & 0xFF), Int32((key >> 8) & 0xFF), Int32(key & 0xFF))
    }

    /// The same without the cache (for callers that keep their own), with
    /// `hint`, an index likely to be the answer (a neighbouring pixel's):
    /// taken at once when nothing else can be nearer.
    @inline(__always)
    public func index(of key: UInt32, hint: Int) -> Int {
        search.nearest(Int32((key >> 16) & 0xFF), Int32((key >> 8) & 0xFF), Int32(key & 0xFF), hint: hint).index
    }

    /// The same by looking at every colour of a palette of up to 256
    /// (`PaletteSearch.nearestByScan`): faster for colours all over the
    /// cube; of two equally near, the first in the palette.
    @inline(__always)
    package func scannedIndex(of key: UInt32, hint: Int) -> Int {
        search.nearestByScan(Int32((key >> 16) & 0xFF), Int32((key >> 8) & 0xFF), Int32(key & 0xFF), hint: hint).index
    }

    /// The distance between two colours' RGB that the matcher finds nearest
    /// by (3·ΔR² + 4·ΔG² + 2·ΔB²); inlinable: sixel asks it for most
    /// pixels.
    @inlinable @inline(__always)
    package static func distance(_ a: UInt32, _ b: UInt32) -> Int32 {
        PaletteSearch.distance(
            Int32((a >> 16) & 0xFF), Int32((a >> 8) & 0xFF), Int32(a & 0xFF), Int32((b >> 16) & 0xFF),
            Int32((b >> 8) & 0xFF), Int32(b & 0xFF))
    }
}
