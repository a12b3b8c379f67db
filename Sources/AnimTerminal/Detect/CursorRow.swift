#if canImport(Glibc)
    import Glibc
#endif

/// The cursor's row by CPR (`CSI 6 n`), for a preview drawn at the cursor
/// when the probe's DECXCPR went unanswered (tmux answers only CPR). The
/// probe avoids CPR (a modified F3 is the same bytes); this asks after it.
public enum CursorRow {
    /// The row (1-based), or nil when `tty` is not a terminal or gives no
    /// report in time. Bytes read before the report are dropped.
    public static func query(tty: Int32, timeoutMs: Int32 = 150) -> Int? {
        guard isatty(tty) == 1 else { return nil }
        return ProbeTTY.withProbeMode(tty) { changed -> Int? in
            guard changed else { return nil }
            var ask = Escape.csi("6n")
            guard Terminal.writeAll(tty, &ask) else { return nil }
            var got: [UInt8] = []
            var deadline = timeoutMs
            while deadline > 0 && got.count < 64 {
                var p = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 10) >= 0 else { return nil }
                deadline -= 10
                guard p.revents & Int16(POLLIN) != 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 64)
                let n = read(tty, &buffer, buffer.count)
                guard n > 0 else { continue }
                got += buffer[0..<n]
                if let row = parse(got) { return row }
            }
            return nil
        }
    }

    /// The row of the last `ESC [ row ; column R` in `bytes`.
    static func parse(_ bytes: [UInt8]) -> Int? {
        guard let end = bytes.lastIndex(of: UInt8(ascii: "R")),
            let start = bytes[..<end].lastIndex(of: 0x1B), start + 1 < end, bytes[start + 1] == UInt8(ascii: "[")
        else { return nil }
        let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self).split(separator: ";")
        guard body.count == 2, let row = Int(body[0]), Int(body[1]) != nil, row >= 1 else { return nil }
        return row
    }
}
