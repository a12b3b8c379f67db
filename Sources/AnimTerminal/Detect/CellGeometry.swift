import AnimKit

/// The size of one terminal cell in the terminal's own pixels.
///
/// Terminals differ (8×18, 8×19, xterm's 6×13): assuming 1:2 stretches
/// the picture by up to 19%. The size comes from `TIOCGWINSZ` or a
/// `CSI 16 t` reply, else is assumed 10×20.
public struct CellGeometry: Equatable, Sendable {
    /// Pixels per cell, across and down (both at least 1).
    public var width: Int
    /// Pixels per cell down (at least 1).
    public var height: Int
    /// True when the terminal reported the size; false when assumed.
    public var isMeasured: Bool

    /// A cell of `width`×`height` pixels, each at least 1.
    public init(width: Int, height: Int, isMeasured: Bool = true) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.isMeasured = isMeasured
    }

    /// 10×20: the 1:2 cell text-cell players assume when nothing is known.
    public static let assumed = CellGeometry(width: 10, height: 20, isMeasured: false)

    /// The cell size from a text area of `pixelWidth`×`pixelHeight` pixels
    /// over `columns`×`rows` cells, or nil when either is zero.
    public static func from(pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int) -> CellGeometry? {
        guard pixelWidth > 0, pixelHeight > 0, columns > 0, rows > 0 else { return nil }
        let w = pixelWidth / columns
        let h = pixelHeight / rows
        guard w >= 1, h >= 1, w <= 1000, h <= 1000 else { return nil }
        return CellGeometry(width: w, height: h)
    }
}

extension CellGeometry {
    /// `rect` widened left and up to start at a cell's corner; with
    /// `wholeCells` also right and down to end at one, within `limit`.
    func aligned(_ rect: Rect, wholeCells: Bool = true, within limit: PixelSize) -> Rect {
        let x0 = rect.x / width * width
        let y0 = rect.y / height * height
        var x1 = rect.x + rect.width
        var y1 = rect.y + rect.height
        if wholeCells {
            x1 = min((x1 + width - 1) / width * width, limit.width)
            y1 = min((y1 + height - 1) / height * height, limit.height)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A box of terminal cells.
public struct CellBox: Equatable, Sendable {
    /// Cells across (at least 1).
    public var columns: Int
    /// Cells down (at least 1).
    public var rows: Int

    /// A box of `columns`×`rows` cells, each at least 1.
    public init(columns: Int, rows: Int) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
    }
}
