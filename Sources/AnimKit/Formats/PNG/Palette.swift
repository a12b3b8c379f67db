/// The colours of a palette APNG, as frames add them (RGBA packed as the
/// little-endian words of the pixel buffer).
struct Palette {
    /// Index 0 is fully transparent black, for the unchanged pixels of
    /// frames blended OVER: rows of zeros, with the filter bytes, deflate
    /// best. A palette that does not `reserve` it has no transparent entry
    /// of its own (256 opaque colours, drawn with SOURCE only).
    private(set) var colors: [UInt32]
    private var indices: [UInt32: UInt8]
    let transparentIndex: UInt8?

    init(reserve: Bool = true) {
        colors = reserve ? [0] : []
        indices = reserve ? [0: 0] : [:]
        transparentIndex = reserve ? 0 : nil
    }

    /// True when the colours of `frame` in `r` fit with those already in,
    /// in a table of `capacity` entries.
    func canHold(_ frame: RGBAImage, _ r: Rect, width: Int, capacity: Int = 256) -> Bool {
        colors.count + newColors(frame, r, width: width, limit: capacity - colors.count) <= capacity
    }

    /// The colours of `frame` in `r` not in the palette yet, counted up
    /// to `limit` + 1.
    func newColors(_ frame: RGBAImage, _ r: Rect, width: Int, limit: Int) -> Int {
        var extra = Set<UInt32>()
        var last: UInt32? = nil
        frame.allPixels(in: r, width: width) { p in
            if p == last || indices[p] != nil { return true }
            last = p
            extra.insert(p)
            return extra.count <= limit
        }
        return extra.count
    }

    /// The smallest PNG bit depth (1, 2, 4, 8) whose table holds `count` entries.
    static func depth(for count: Int) -> Int {
        count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
    }

    mutating func add(_ frame: RGBAImage, _ r: Rect, width: Int) {
        var last: UInt32? = nil
        frame.allPixels(in: r, width: width) { p in
            if p != last && indices[p] == nil { insert(p) }
            last = p
            return true
        }
    }

    func index(of p: UInt32) -> UInt8 { indices[p]! }

    /// The same colours without the reserved transparent entry.
    func unreserved() -> Palette {
        var p = Palette(reserve: false)
        for c in colors.dropFirst(transparentIndex == nil ? 0 : 1) { p.insert(c) }
        return p
    }

    private mutating func insert(_ p: UInt32) {
        indices[p] = UInt8(colors.count)
        colors.append(p)
    }

    /// PLTE and tRNS bodies of `entries` entries each (at least the colours').
    func chunks(entries: Int) -> ([UInt8], [UInt8]) { Self.chunks(colors, entries: entries) }

    /// PLTE and tRNS bodies for `colors` (RGBA words), `entries` entries each.
    static func chunks(_ colors: [UInt32], entries: Int) -> ([UInt8], [UInt8]) {
        var plte = [UInt8](repeating: 0, count: 3 * entries)
        var trns = [UInt8](repeating: 255, count: entries)
        for (i, c) in colors.enumerated() {
            plte[i * 3] = UInt8(c & 0xFF)
            plte[i * 3 + 1] = UInt8(c >> 8 & 0xFF)
            plte[i * 3 + 2] = UInt8(c >> 16 & 0xFF)
            trns[i] = UInt8(c >> 24)
        }
        return (plte, trns)
    }
}
