import Synchronization

/// A progress bar on stderr while frames are written, only when stderr is
/// a terminal: frames done of the total, rate, time left. A signal ends
/// its line (`TemporaryFileGuard`).
struct Progress {
    /// Whether a bar is on the screen now (read by the signal handler).
    static let lineShown = Atomic<Bool>(false)
    private var slot: TemporaryFileGuard.Slot?

    let total: Int
    let label: String
    let enabled: Bool
    private let start = Measure.milliseconds() / 1000
    private var lastDraw = 0.0

    /// `enabled`: false for `-q` and inside a batch (which shows its own).
    init(total: Int, label: String, enabled: Bool = true) {
        self.total = total
        self.label = label
        self.enabled = enabled && isatty(2) == 1
    }

    /// Draws `done` frames (at most 10 times a second, and at the end).
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let t = Measure.milliseconds() / 1000
        guard done == total || t - lastDraw >= 0.1 else { return }
        lastDraw = t
        let elapsed = max(t - start, 1e-6)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total > 0 ? done * width / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        if slot == nil { slot = TemporaryFileGuard.hold() }
        Self.lineShown.store(true, ordering: .relaxed)
        let line = "\r\(label) [\(bar)] \(done)/\(total) frames  \(String(format1: rate)) fps  \(clock(left)) left\u{1B}[K"
        Output.err(line)
    }

    /// Clears the bar.
    mutating func end() {
        guard enabled, slot != nil || Self.lineShown.load(ordering: .relaxed) else { return }
        Output.err("\r\u{1B}[K")
        Self.lineShown.store(false, ordering: .relaxed)
        TemporaryFileGuard.release(slot)
        slot = nil
    }

    private func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
    }
}

extension String {
    /// One decimal.
    init(format1 v: Double) {
        let tenths = Int((v * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
