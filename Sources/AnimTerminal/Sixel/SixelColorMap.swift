import AnimKit

/// Colour → register for every pixel drawn, through a table of the 101³
/// colours of the percent grid filled on demand: each colour's nearest
/// palette entry is searched once while the palette lasts (frames reuse
/// palettes), not per pixel. 2 MiB, kept for the backend's life.
final class SixelColorMap {
    private static let side = 101
    private static let count = side * side * side
    /// Per grid colour its palette entry + 1, 0 when not yet searched.
    private let table: UnsafeMutablePointer<UInt16>
    private var touched: [Int32] = []
    private var matcher: PaletteMatcher?

    init() {
        table = .allocate(capacity: Self.count)
        table.initialize(repeating: 0, count: Self.count)
    }

    deinit { table.deallocate() }

    /// Writes the register of each key of `keys` into `out` (`none` for key 0).
    func map(_ keys: UnsafeBufferPointer<UInt32>, _ mapping: SixelPalette.Mapping, into out: UnsafeMutableBufferPointer<UInt16>) {
        use(mapping.matcher)
        let matcher = mapping.matcher
        mapping.registers.withUnsafeBufferPointer { registers in
            SixelPercent.percent.withUnsafeBufferPointer { percent in
                var lastKey: UInt32 = 0
                var last = SixelEncoder.none
                var hint = -1
                for i in 0..<keys.count {
                    let key = keys[i]
                    if key == 0 {
                        out[i] = SixelEncoder.none
                        continue
                    }
                    if key != lastKey {
                        lastKey = key
                        let slot =
                            (Int(percent[Int((key >> 16) & 0xFF)]) * Self.side + Int(percent[Int((key >> 8) & 0xFF)]))
                            * Self.side + Int(percent[Int(key & 0xFF)])
                        var entry = Int(table[slot]) - 1
                        if entry < 0 {
                            entry = matcher.scannedIndex(of: key, hint: hint)
                            table[slot] = UInt16(entry + 1)
                            touched.append(Int32(slot))
                        }
                        last = registers[entry]
                        hint = entry
                    }
                    out[i] = last
                }
            }
        }
    }

    /// Forgets the answers when the palette is another one.
    private func use(_ next: PaletteMatcher) {
        guard next !== matcher else { return }
        if touched.count > Self.count / 16 {
            table.update(repeating: 0, count: Self.count)
        } else {
            for slot in touched { table[Int(slot)] = 0 }
        }
        touched.removeAll(keepingCapacity: true)
        matcher = next
    }
}
