/// The colours of a GIF's global table, chosen from every frame before the
/// first is written (`EncodingOptions.GIF.Prescan`).
///
/// When the colours of all frames fit one table: that table, and every
/// frame is drawn from it exactly. Otherwise each frame's changed colours
/// (against the frame before; all of frame 0's) are a set, and the table is
/// the one that leaves the fewest bytes of colour tables: seeded in turn by
/// frame 0 and the frames whose local tables would cost most, grown by the
/// sets that fit where that saves bytes (or by every set that fits), it
/// counts 3 × 2^bits bytes for itself and for the table of each frame it
/// does not hold (two later frames sharing their colours may leave a
/// local table to frame 0 rather than take one each). nil when frame 0's
/// colours (the writer's choice without a table given) do as well, or
/// frame 0 has more colours than a table (a photograph: the writer
/// quantises it).
struct GlobalTableChoice {
    /// Colours a table may hold (one entry is kept for transparency).
    let limit: Int
    /// Every colour, up to `limit + 1`: a table of that many needs no
    /// transparent entry when no frame both needs one and uses them all.
    private var union: ColorSet
    /// Per frame, its changed colours; nil past `limit + 1`.
    private(set) var sets: [[UInt32]?] = []
    private var previous: [UInt32] = []
    private var keys: [UInt32] = []
    /// No frame added has a transparent pixel.
    private(set) var opaque = true
    /// Per frame after the first: whether the writer may give it a
    /// transparent index (an unchanged pixel inside the box of its changes,
    /// or transparency in it or the frame before, which disposal clears).
    private var transparentMay: [Bool] = []
    /// The frame added last has a transparent pixel.
    private var previousClear = false

    init(limit: Int) {
        self.limit = min(max(limit, 1), 255)
        union = ColorSet(limit: self.limit + 1)
    }

    /// False when frame 0 has too many colours: nothing to choose, stop reading.
    var worthReading: Bool { sets.first.map { $0 != nil } ?? true }

    mutating func add(_ image: RGBAImage) {
        GIFFrameDiff.load(image, into: &keys)
        let first = previous.count != keys.count
        let clear = keys.contains(0)
        if opaque { opaque = !clear }
        if first {
            transparentMay = [true]  // frame 0: as `opaque` says
        } else {
            let changes = GIFFrameDiff.changes(keys, reference: previous, width: image.width, height: image.height)
            transparentMay.append(
                changes.rect.width * changes.rect.height > changes.count || clear || previousClear)
        }
        previousClear = clear
        var set = ColorSet(limit: limit + 1)
        keys.withUnsafeBufferPointer { k in
            previous.withUnsafeBufferPointer { p in
                for i in 0..<k.count where k[i] != 0 && (first || k[i] != p[i]) {
                    if !union.overflowed { _ = union.insert(k[i]) }
                    if !set.overflowed { _ = set.insert(k[i]) }
                    if set.overflowed && union.overflowed { break }
                }
            }
        }
        sets.append(set.overflowed ? nil : set.colors)
        swap(&previous, &keys)
    }

    /// The plan for the writer, once `frames` frames were added (all of
    /// them, or `opaque` is not known): the table, and whether it keeps an
    /// entry of its own for transparency. As gifsicle's, it keeps none: a
    /// frame names the first entry it does not use, which keeps its
    /// indices low, or the padding past the colours. Only a table whose
    /// colours fill it (2, 4, … 128) keeps one, when a frame may show
    /// transparency with every colour among its changed ones (a frame after
    /// the first, or frame 0 of an animation with transparency).
    func plan(frames: Int) -> EncodingOptions.GIF.Prescan {
        let all = sets.count == frames && frames > 0
        // One colour more than `limit`: a full table with no transparent
        // entry, when no frame needs one with all of them in use.
        if all, !union.overflowed, union.colors.count == limit + 1, !needsEntry(Set(union.colors)) {
            return .init(colors: union.colors, transparentEntry: false, opaque: opaque)
        }
        let colors = colors()
        var entry = true
        if let colors, all, colors.count < 256 {
            let full = 1 << GIFEncoder.bits(max(colors.count - 1, 1)) == colors.count
            entry = full && needsEntry(Set(colors))
        }
        return .init(colors: colors, transparentEntry: entry, opaque: all && opaque)
    }

    /// Whether a frame may show transparency with every colour of `table`
    /// among its changed ones (frame 0 only when the frames are not
    /// `opaque`, a later one only as `transparentMay` says; `plan` asks only
    /// once every frame was added).
    private func needsEntry(_ table: Set<UInt32>) -> Bool {
        sets.enumerated().contains { i, set in
            guard i > 0 || !opaque, transparentMay[i] else { return false }
            guard let set else { return true }
            return set.count >= table.count && table.isSubset(of: set)
        }
    }

    /// Bytes of a colour table for `n` colours and a transparent entry.
    static func tableBytes(_ n: Int) -> Int { 3 << GIFEncoder.bits(n) }

    /// The table to use, or nil for the writer's own choice (frame 0's).
    func colors() -> [UInt32]? {
        if !union.overflowed && union.colors.count <= limit { return union.colors }
        guard let zero = sets.first ?? nil else { return nil }
        let costly = sets.indices.filter { sets[$0] != nil }.sorted {
            (Self.tableBytes(sets[$0]!.count), $1) > (Self.tableBytes(sets[$1]!.count), $0)
        }
        func cost(_ table: Set<UInt32>) -> Int {
            // (A full table of 256 colours has no transparent entry.)
            var bytes = table.count == 256 ? 768 : Self.tableBytes(table.count)
            for set in sets {
                guard let set else { continue }
                if !set.allSatisfy(table.contains) { bytes += Self.tableBytes(set.count) }
            }
            return bytes
        }
        let baseline = cost(Set(zero))
        var best: (bytes: Int, table: Set<UInt32>)?
        let seeds = [0] + costly.prefix(sets.count > 4096 ? 4 : 16).filter { $0 != 0 }
        // Each seed grown two ways: by a set only when that saves its table
        // alone, and by every set that fits (a larger table that saves
        // several tables at once, as gifsicle's fills its 256 entries).
        for seed in seeds {
            guard let start = sets[seed], start.count <= limit else { continue }
            for filling in [false, true] {
                var table = Set(start)
                for j in costly where j != seed {
                    let set = sets[j]!
                    if set.allSatisfy(table.contains) { continue }
                    let grown = table.union(set)
                    if grown.count <= limit
                        && (filling
                            || Self.tableBytes(grown.count) - Self.tableBytes(table.count) < Self.tableBytes(set.count))
                    {
                        table = grown
                    }
                }
                let bytes = cost(table)
                if bytes < best?.bytes ?? Int.max { best = (bytes, table) }
            }
        }
        guard let best, best.bytes < baseline else { return nil }
        return best.table.sorted()
    }
}
