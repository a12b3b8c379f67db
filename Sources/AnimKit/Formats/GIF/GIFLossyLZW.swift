/// Lossy LZW, in the manner of gifsicle's `--lossy` (Kornel Lesiński's
/// idea): while the LZW parse grows a string, it may take a dictionary
/// string whose next pixel is a near colour instead of the exact one, so
/// strings get longer and codes fewer. A pixel may stand for another when
/// their squared RGB distance is at most `loss × 10` (gifsicle's scale),
/// the distance being the smaller of the plain one and the one with half
/// the error carried along the string (three quarters of each pixel's
/// error is carried on, as dither);
/// transparent and opaque pixels never stand for each other, and the
/// first pixel of every string is exact. Of the strings that pass, the
/// longest is taken, the least distorted among equals.
///
/// `apply` rewrites the indices to what the chosen strings show, and the
/// writer compresses them with the exact encoder, which finds nearly the
/// same strings.
enum GIFLossyLZW {
    /// Replaces `indices` by the pixels a lossy parse shows; returns how
    /// many changed. `colors` holds each index's colour (RGBA words, as in
    /// `GIFPalette`), `transparent` the transparent index if any.
    ///
    /// `shown`, when given, holds for each pixel the colour on screen under
    /// it (`0xFFRRGGBB`) where the frame leaves it unchanged, 0 elsewhere:
    /// such a pixel may be transparent or any near colour, so that
    /// unchanged pixels scattered through changed ones (noise, dither) do
    /// not break the strings (gifsicle cannot).
    @discardableResult
    static func apply(
        _ indices: UnsafeMutableBufferPointer<UInt8>, colors: [UInt32], transparent: Int?, bitsPerPixel: Int, loss: Int,
        shown: [UInt32]? = nil
    ) -> Int {
        guard loss > 0, indices.count > 1 else { return 0 }
        precondition(shown == nil || shown!.count == indices.count, "GIFLossyLZW: one shown colour a pixel")
        var parser = Parser(colors: colors, transparent: transparent, minimumCodeSize: max(bitsPerPixel, 2), maxDiff: loss * 10)
        return parser.run(indices, shown: shown)
    }

    private struct Parser {
        let rgb: [(Int, Int, Int)]
        let transparent: Int
        let clear: Int
        let maxDiff: Int
        // The dictionary as a trie: codes below `clear` are the one-pixel roots.
        var suffix = [UInt8](repeating: 0, count: 4096)
        var parent = [Int16](repeating: -1, count: 4096)
        var firstChild = [Int16](repeating: -1, count: 4096)
        var sibling = [Int16](repeating: -1, count: 4096)
        var next = 0
        /// Trie nodes visited by one search at most: a bound on the time
        /// the search takes on smooth palettes with a high loss.
        let budget = 20_000

        init(colors: [UInt32], transparent: Int?, minimumCodeSize: Int, maxDiff: Int) {
            rgb = (0..<256).map { i in
                let c = i < colors.count ? colors[i] : 0
                return (Int(c & 0xFF), Int(c >> 8 & 0xFF), Int(c >> 16 & 0xFF))
            }
            self.transparent = transparent ?? -1
            clear = 1 << minimumCodeSize
            self.maxDiff = maxDiff
            reset()
        }

        mutating func reset() {
            for i in 0..<4096 {
                firstChild[i] = -1
                sibling[i] = -1
            }
            for i in 0..<clear {
                suffix[i] = UInt8(truncatingIfNeeded: i)
                parent[i] = -1
            }
            next = clear + 2
        }

        /// One entry of the explicit search stack: a node reached at `pos`
        /// (its string covers up to `pos`), the distortion so far and the
        /// dither carried, and the child to try next.
        struct Step {
            var node: Int
            var pos: Int
            var diff: Int
            var dr: Int, dg: Int, db: Int
            var child: Int
        }

        mutating func run(_ px: UnsafeMutableBufferPointer<UInt8>, shown: [UInt32]?) -> Int {
            let n = px.count
            let original = Array(px)
            var changed = 0
            var pos = 0
            var stack: [Step] = []
            stack.reserveCapacity(256)
            var string = [UInt8](repeating: 0, count: 4096)
            while pos < n {
                let root = Int(original[pos])
                var best = (node: root, end: pos + 1, diff: 0)
                stack.removeAll(keepingCapacity: true)
                stack.append(Step(node: root, pos: pos + 1, diff: 0, dr: 0, dg: 0, db: 0, child: Int(firstChild[root])))
                var visited = 0
                while var top = stack.last {
                    guard top.child >= 0, top.pos < n, visited < budget else {
                        stack.removeLast()
                        continue
                    }
                    let c = top.child
                    top.child = Int(sibling[c])
                    stack[stack.count - 1] = top
                    visited += 1
                    let want = Int(original[top.pos])
                    let got = Int(suffix[c])
                    var d = 0
                    var (er, eg, eb) = (0, 0, 0)
                    let under = shown?[top.pos] ?? 0
                    if want != got && under != 0 && got == transparent {
                        // Unchanged: transparent shows what is there.
                    } else if want != got {
                        let wt = want == transparent && under == 0
                        let gt = got == transparent
                        if wt != gt { continue }
                        if !wt {
                            let a =
                                under != 0
                                ? (Int(under & 0xFF), Int(under >> 8 & 0xFF), Int(under >> 16 & 0xFF)) : rgb[want]
                            let b = rgb[got]
                            // The smaller of the plain distance and the one
                            // with half the carried error: the dither is taken
                            // when it helps, not required.
                            let (pr, pg, pb) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
                            let (xr, xg, xb) = (pr + top.dr / 2, pg + top.dg / 2, pb + top.db / 2)
                            d = min(pr * pr + pg * pg + pb * pb, xr * xr + xg * xg + xb * xb)
                            if d > maxDiff { continue }
                            (er, eg, eb) = (a.0 - b.0 + top.dr * 3 / 4, a.1 - b.1 + top.dg * 3 / 4, a.2 - b.2 + top.db * 3 / 4)
                        }
                    } else if want != transparent {
                        // An exact pixel still carries the dither on.
                        (er, eg, eb) = (top.dr * 3 / 4, top.dg * 3 / 4, top.db * 3 / 4)
                    }
                    let step = Step(
                        node: c, pos: top.pos + 1, diff: top.diff + d, dr: er, dg: eg, db: eb, child: Int(firstChild[c]))
                    if step.pos > best.end || (step.pos == best.end && step.diff < best.diff) {
                        best = (c, step.pos, step.diff)
                    }
                    stack.append(step)
                }
                var length = 0
                var node = best.node
                while node >= 0 {
                    string[length] = suffix[node]
                    length += 1
                    node = Int(parent[node])
                }
                for k in 0..<length {
                    let v = string[length - 1 - k]
                    if px[pos + k] != v {
                        px[pos + k] = v
                        changed += 1
                    }
                }
                pos = best.end
                // The code the decoder defines: this string and the next (exact) pixel.
                if pos < n {
                    if next < 4095 {
                        define(best.node, original[pos])
                        next += 1
                    } else {
                        reset()
                    }
                }
            }
            return changed
        }

        mutating func define(_ node: Int, _ pixel: UInt8) {
            let code = next
            suffix[code] = pixel
            parent[code] = Int16(node)
            firstChild[code] = -1
            sibling[code] = firstChild[node]
            firstChild[node] = Int16(code)
        }
    }
}
