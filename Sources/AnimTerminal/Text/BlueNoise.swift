#if canImport(Glibc)
    import Glibc
#endif

/// A 32×32 blue-noise threshold map by Ulichney's void-and-cluster method
/// on a torus (tiles meet without a seam): every rank 0–1023 once, any
/// range of ranks spread evenly. Made when first used, from a fixed seed.
enum BlueNoise {
    static let size = 32
    static let count = size * size

    static let ranks: [UInt16] = make()

    /// The energy an occupied pixel adds at each offset (dx, dy) on the
    /// torus: a Gaussian of σ 1.5 (2σ² = 4.5).
    static func kernel() -> [Float] {
        var k = [Float](repeating: 0, count: count)
        for dy in 0..<size {
            for dx in 0..<size {
                let x = Float(min(dx, size - dx))
                let y = Float(min(dy, size - dy))
                let d2: Float = x * x + y * y
                k[dy * size + dx] = Float(exp(Double(-d2 / 4.5)))
            }
        }
        return k
    }

    /// The pattern and the energy of each pixel from the set pixels.
    struct Field {
        var set = [Bool](repeating: false, count: BlueNoise.count)
        var energy = [Float](repeating: 0, count: BlueNoise.count)
        let kernel = BlueNoise.kernel()

        mutating func toggle(_ p: Int) {
            let n = BlueNoise.size
            let sign: Float = set[p] ? -1 : 1
            set[p].toggle()
            let (px, py) = (p % n, p / n)
            for y in 0..<n {
                let row = ((y - py + n) % n) * n
                for x in 0..<n { energy[y * n + x] += sign * kernel[row + (x - px + n) % n] }
            }
        }

        /// The set pixel with the most energy, or the unset one with the least (first on a tie).
        func extreme(set wanted: Bool) -> Int {
            var best = -1
            for p in 0..<BlueNoise.count where set[p] == wanted {
                if best < 0 || (wanted ? energy[p] > energy[best] : energy[p] < energy[best]) { best = p }
            }
            return best
        }
    }

    static func make() -> [UInt16] {
        var field = Field()
        // A tenth of the pixels, from a fixed linear congruential sequence.
        var seed: UInt32 = 0x2545_F491
        var placed = 0
        while placed < count / 10 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let p = Int(seed >> 8) % count
            if !field.set[p] {
                field.toggle(p)
                placed += 1
            }
        }
        // Move the tightest cluster to the largest void until it is the void.
        for _ in 0..<count {
            let cluster = field.extreme(set: true)
            field.toggle(cluster)
            let void = field.extreme(set: false)
            field.toggle(void)
            if void == cluster { break }
        }
        var ranks = [UInt16](repeating: 0, count: count)
        // Ranks below the initial pattern: remove tightest clusters.
        var down = field
        for rank in stride(from: placed - 1, through: 0, by: -1) {
            let p = down.extreme(set: true)
            down.toggle(p)
            ranks[p] = UInt16(rank)
        }
        // Ranks above: fill the largest voids.
        for rank in placed..<count {
            let p = field.extreme(set: false)
            field.toggle(p)
            ranks[p] = UInt16(rank)
        }
        return ranks
    }
}
