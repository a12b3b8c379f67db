/// A truncated interlaced GIF image as browsers show it: each whole row of
/// the first three passes also covers the rows below it that later passes
/// would draw (8 rows for pass 1, 4 for pass 2, 2 for pass 3), and a later
/// pass's row replaces that, as headless Chromium shows a cut interlaced
/// image; a row cut part way shows only where it was decoded and covers
/// nothing. `GIFEdgeCaseTests` pins it.
enum GIFInterlaceFill {
    /// The decoded row that image row `y` (not decoded itself) shows, or nil.
    static func source(of y: Int, decoded: (Int) -> Bool) -> Int? {
        // The latest pass whose block covers `y`: pass 3 (rows 2 mod 4
        // cover the next row), pass 2 (4 mod 8, the next 3), pass 1 (0 mod
        // 8, the next 7).
        let candidates = [y % 4 >= 2 ? y - y % 4 + 2 : nil, y % 8 >= 4 ? y - y % 8 + 4 : nil, y - y % 8]
        for case let r? in candidates where r != y && decoded(r) { return r }
        return nil
    }
}
