import AnimKit

/// Where each pane goes on the screen, and the bytes of one frame with its
/// title and status line.
extension Player {
    /// One pane with keys owns the window: a status line, the cursor on the
    /// shell's row.
    var ownsWindow: Bool { options.interactive && grid == nil }

    /// Lays the panes out (a grid over the screen as it is) and fits each.
    func layOut() throws {
        if let grid {
            let regions = Self.regions(count: panes.count, columns: grid.columns, rows: grid.rows, screen: Self.screen(options))
            for (p, r) in zip(panes, regions) { p.layout.region = r }
        }
        for p in panes { try layOut(p) }
    }

    /// Fits the animation into the pane's box for the terminal's cell size
    /// and (re)opens the cached frames at that size.
    func layOut(_ pane: Pane) throws {
        let size = Terminal.windowSize(fd: options.output)
        let region = pane.layout.region
        let columns = region?.columns ?? options.columns ?? size?.columns ?? 80
        // The last row holds the status line; without one, iTerm2 and sixel
        // images keep off it too (a cursor moved below them would scroll).
        let graphics = options.look.graphics
        let imageRow = ownsWindow && !options.showStatus && (graphics == .iterm2 || graphics == .sixel)
        let reserved = (imageRow ? 1 : 0) + (options.showStatus && ownsWindow ? 1 : 0)
        let terminalRows = options.rows ?? size?.rows ?? 24
        pane.layout.statusRow = max(terminalRows - reserved, 1) + 1
        let titleRows = pane.layout.title == nil ? 0 : 1
        let rows = max((region?.rows ?? max(terminalRows - reserved, 1)) - titleRows, 1)
        if let windowRows = size?.rows { followShellRow(windowRows: windowRows) }
        pane.layout.box = CellBox(columns: columns, rows: rows)
        let measured = size.flatMap {
            CellGeometry.from(pixelWidth: $0.pixelWidth, pixelHeight: $0.pixelHeight, columns: $0.columns, rows: $0.rows)
        }
        let origin =
            region.map { ($0.row, $0.column) } ?? options.presentation.placement.map { ($0.row, $0.column) } ?? (1, 1)
        pane.layout.placement = Placement.fit(
            source: PixelSize(width: pane.file.width, height: pane.file.height), box: pane.layout.box,
            cell: options.cell ?? measured ?? .assumed, resolution: pane.backend.resolution,
            upscale: options.look.upscale, centered: options.interactive || region != nil,
            origin: (origin.0 + titleRows, origin.1))
        pane.layout.titleDrawn = false
        try pane.openFrames(
            cacheLimit: options.cacheLimit, memory: pane.file.options.limits.maxMemory / max(panes.count, 1))
        pane.backend.invalidate()
        pane.layout.lastStatus = ""
    }

    /// Keeps `cursorRow`, where the shell's output ended, right through
    /// resizes: a window shrunk below it scrolls the main screen, so the row
    /// moves up to the last (xterm's saved cursor does not:
    /// `setCursorAfter`); grown again, where the lines come back
    /// (`linesReturnOnGrow`) it moves down with them.
    func followShellRow(windowRows: Int) {
        defer { windowRowsSeen = windowRows }
        guard let row = terminal.answers.cursorRow else { return }
        var moved = row
        if windowRows < row {
            shellRowPushed += row - windowRows
            moved = windowRows
        } else if terminal.linesReturnOnGrow, let before = windowRowsSeen, windowRows > before, shellRowPushed > 0 {
            let back = min(shellRowPushed, windowRows - before)
            shellRowPushed -= back
            moved = row + back
        }
        guard moved != row else { return }
        terminal.answers.cursorRow = moved
        if ownsWindow { TerminalState.setCursorAfter(row: moved) }
    }

    /// Shows the pane's scheduler frame `played`; false when the output is gone.
    func show(_ pane: Pane, _ played: Int) throws -> Bool {
        var bytes = Escape.syncBegin + (try pane.render(played))
        if let title = titleLine(pane) {
            bytes += title
            pane.backend.outputWasInterleaved()
        }
        if options.showStatus && ownsWindow, let status = statusLine(pane, pane.first + played) {
            bytes += status
            pane.backend.outputWasInterleaved()
        }
        if bytes.count > Escape.syncBegin.count, ownsWindow, let row = terminal.answers.cursorRow {
            // The cursor waits between frames on the shell's row.
            bytes += Escape.moveTo(row: row, column: 1)
            pane.backend.cursorWasMoved(row: row, column: 1)
        }
        bytes += Escape.syncEnd
        let now = clock.nanoseconds()
        if pane.stats.framesShown == 0 {
            pane.stats.firstFrameMs = Double(now - start) / 1e6
        } else {
            pane.stats.intervals.append(Double(now - pane.lastWrite) / 1e6)
        }
        pane.lastWrite = now
        pane.stats.framesShown += 1
        // Deadlines count from the first frame on screen, not its decoding.
        if pane.stats.framesShown == 1 { pane.scheduler.startCurrentFrameNow() }
        // A frame that changes nothing costs nothing.
        if bytes.count == Escape.syncBegin.count + Escape.syncEnd.count { bytes = [] }
        pane.stats.bytesWritten += bytes.count
        if options.recordFrames {
            pane.stats.shownFrames.append(.init(frame: pane.first + played, time: now - start, byteEnd: pane.stats.bytesWritten))
        }
        return writer.write(bytes, synchronized: true)
    }

    /// The status line's bytes when its text changed (nil: the renderer's
    /// colours stay set).
    func statusLine(_ pane: Pane, _ index: Int) -> [UInt8]? {
        let scheduler = pane.scheduler
        let speed = scheduler.speed == scheduler.speed.rounded() ? String(Int(scheduler.speed)) : String(scheduler.speed)
        let direction =
            switch scheduler.mode {
            case .forward: ""
            case .reverse: " backwards"
            case .pingPong: " back and forth"
            }
        let text =
            " \(pane.name)  frame \(index + 1)/\(pane.file.frameCount)  speed \(speed)x\(direction)"
            + "  dropped \(pane.stats.framesDropped)" + (scheduler.isPaused ? "  paused" : "")
        guard text != pane.layout.lastStatus else { return nil }
        pane.layout.lastStatus = text
        return Escape.moveTo(row: pane.layout.statusRow, column: 1) + Escape.resetAttributes + Escape.reverseVideo
            + Array(text.prefix(max(pane.layout.box.columns - 1, 1)).utf8) + Escape.resetAttributes
            + Escape.clearToEndOfLine
    }

    /// The title's bytes, centred above the picture and cut to the box's
    /// width, when it is not on screen yet.
    func titleLine(_ pane: Pane) -> [UInt8]? {
        guard let title = pane.layout.title, !pane.layout.titleDrawn else { return nil }
        pane.layout.titleDrawn = true
        let (region, placement) = (pane.layout.region, pane.layout.placement)
        let width = max(region?.columns ?? pane.layout.box.columns, 1)
        let text = title.count > width ? String(title.prefix(max(width - 1, 0))) + "…" : title
        let column = max(placement.column + (placement.columns - text.count) / 2, region?.column ?? 1)
        return Escape.moveTo(row: max(placement.row - 1, 1), column: column) + Escape.resetAttributes + Escape.bold
            + Array(text.utf8) + Escape.resetAttributes
    }

    /// The screen's size in cells: the options', else the terminal's.
    static func screen(_ o: PlayerOptions) -> (columns: Int, rows: Int) {
        let size = Terminal.windowSize(fd: o.output)
        return (o.columns ?? size?.columns ?? 80, o.rows ?? size?.rows ?? 24)
    }

    /// The first `count` panes of a `columns`×`rows` grid over the screen,
    /// row by row, one blank column between panes.
    static func regions(count: Int, columns: Int, rows: Int, screen: (columns: Int, rows: Int)) -> [CellRegion] {
        let width = max((screen.columns - (columns - 1)) / columns, 1)
        let height = max(screen.rows / rows, 1)
        return (0..<count).map { i in
            CellRegion(row: 1 + (i / columns) * height, column: 1 + (i % columns) * (width + 1), columns: width, rows: height)
        }
    }
}
