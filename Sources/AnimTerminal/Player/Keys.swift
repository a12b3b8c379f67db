import AnimKit

/// Keys the player understands.
public enum PlayerKey: Equatable, Sendable {
    /// Space: pause or resume.
    case togglePause
    /// → and ←: one frame forward or back (pauses).
    case stepForward, stepBack
    /// + and −: double or halve the speed.
    case faster, slower
    /// r: play the other way; 0: from the first frame again.
    case reverse, restart
    /// s: the status line on or off.
    case toggleStatus
    /// q, Esc, Ctrl-C.
    case quit
    /// Several files: the next one, the previous one.
    case next, previous

    /// The keys in `bytes` read from a raw terminal (arrows are ESC [ C/D;
    /// a lone ESC quits).
    public static func parse(_ bytes: [UInt8]) -> [PlayerKey] {
        var keys: [PlayerKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                switch bytes[i + 2] {
                case UInt8(ascii: "C"): keys.append(.stepForward)
                case UInt8(ascii: "D"): keys.append(.stepBack)
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case UInt8(ascii: " "): keys.append(.togglePause)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.faster)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.slower)
            case UInt8(ascii: "r"): keys.append(.reverse)
            case UInt8(ascii: "0"): keys.append(.restart)
            case UInt8(ascii: "s"): keys.append(.toggleStatus)
            case UInt8(ascii: "n"): keys.append(.next)
            case UInt8(ascii: "p"): keys.append(.previous)
            case UInt8(ascii: "q"), 0x03, 0x1B: keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }

    /// What the key does to a pane's scheduler; other keys are the player's.
    func apply(to scheduler: FrameScheduler) {
        switch self {
        case .togglePause: scheduler.togglePause()
        case .stepForward: scheduler.step(by: 1)
        case .stepBack: scheduler.step(by: -1)
        case .faster: scheduler.speed = min(scheduler.speed * 2, 64)
        case .slower: scheduler.speed = max(scheduler.speed / 2, 1.0 / 64)
        case .reverse:
            // Not while a stream is still arriving: its frames are added at
            // the end.
            if !scheduler.isOpenEnded { scheduler.mode = scheduler.mode == .reverse ? .forward : .reverse }
        case .restart: scheduler.restart()
        case .toggleStatus, .quit, .next, .previous: break
        }
    }
}
