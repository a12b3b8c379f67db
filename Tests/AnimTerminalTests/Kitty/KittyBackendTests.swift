import AnimKit
import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The kitty backend's stream, replayed by `KittyScreen`, shows exactly the
/// frames given, in any order, after a resize, and past the storage budget;
/// frames already uploaded cost one small command.
struct KittyBackendTests {
    /// A mostly static clip: a detailed background with a sprite moving.
    static func clip(_ n: Int, width: Int = 160, height: Int = 96, alpha: Bool = false) -> [RGBAImage] {
        (0..<n).map { f in
            let sx = 10 + f * 5 % (width - 30)
            let sy = 20 + f * 3 % (height - 30)
            return RGBAImage.drawn(width: width, height: height) { x, y in
                // A sprite over a detailed background: thousands of colours that deflate poorly.
                if (sx..<sx + 12).contains(x) && (sy..<sy + 12).contains(y) { return (255, 0, 0, f % 2 == 0 ? 255 : 100) }
                let h = (x &* 2_654_435_761) ^ (y &* 40_503) ^ (x * y)
                return (
                    UInt8((x * 7 + y * 3) & 255), UInt8(truncatingIfNeeded: h >> 5), UInt8(y * 2 & 255),
                    alpha && (x + y) % 17 == 0 ? 0 : 255
                )
            }
        }
    }

    static func placement(_ image: RGBAImage, row: Int = 2, column: Int = 3) -> Placement {
        Placement(
            row: row, column: column, columns: 16, rows: 5, pixels: PixelSize(width: image.width, height: image.height),
            cell: CellGeometry(width: 10, height: 20))
    }

    func play(
        _ backend: KittyBackend, _ frames: [RGBAImage], order: [Int], screen: inout KittyScreen,
        placement: Placement? = nil
    ) -> [Int] {
        var sizes: [Int] = []
        for i in order {
            let p = placement ?? Self.placement(frames[i])
            let bytes = backend.renderStored(index: i, placement: p) ?? backend.render(frames[i], index: i, placement: p)
            screen.feed(bytes)
            sizes.append(bytes.count)
            #expect(screen.errors.isEmpty, "frame \(i): \(screen.errors)")
            let exact = screen.shown == frames[i]
            #expect(exact, "frame \(i) shown exactly")
        }
        return sizes
    }

    @Test func framesAreUploadedOnceThenShownByNumber() {
        let frames = Self.clip(12, alpha: true)
        let backend = KittyBackend(background: .none, imageID: 77)
        var screen = KittyScreen()
        let first = play(backend, frames, order: Array(0..<12), screen: &screen)
        #expect(screen.placedAt! == (2, 3))
        #expect(screen.stopped, "kitty's own animation is stopped: anim times the frames")
        #expect(screen.frames.count == 12)
        // The second loop: no pixels, a control command each.
        let second = play(backend, frames, order: Array(0..<12), screen: &screen)
        #expect(second.allSatisfy { $0 > 0 && $0 <= 64 }, "later loops: \(second)")
        #expect(first.dropFirst().allSatisfy { $0 < first[0] / 4 }, "a sprite frame costs a fraction of the first: \(first)")
    }

    /// A terminal that shows kitty images but not animation frames
    /// (Konsole): every frame that changed is a new whole image, no frame
    /// command (`a=f`) or animation control (`a=a`) is sent, and each frame
    /// is shown exactly; an unchanged frame sends nothing.
    @Test func aTerminalWithoutAnimationGetsAnImageAFrame() {
        let frames = Self.clip(5)
        let backend = KittyBackend(background: .none, imageID: 78, animates: false)
        var screen = KittyScreen()
        var sent: [UInt8] = []
        for i in [0, 1, 2, 3, 4, 2] {
            let p = Self.placement(frames[i])
            #expect(backend.renderStored(index: i, placement: p) == nil)
            let bytes = backend.render(frames[i], index: i, placement: p)
            screen.feed(bytes)
            sent += bytes
            #expect(screen.errors.isEmpty && screen.shown == frames[i], "frame \(i)")
            #expect(String(decoding: bytes, as: UTF8.self).contains("a=T,i=78"), "frame \(i) sent whole")
        }
        let text = String(decoding: sent, as: UTF8.self)
        #expect(!text.contains("a=f") && !text.contains("a=a"))
        #expect(backend.render(frames[2], index: 2, placement: Self.placement(frames[2])).isEmpty)
    }

    @Test func backwardsAndSeeking() {
        let frames = Self.clip(9)
        let backend = KittyBackend(background: .none, imageID: 5)
        var screen = KittyScreen()
        _ = play(backend, frames, order: [0, 4, 8, 2, 7, 1, 6, 3, 5, 5, 0, 8], screen: &screen)
        _ = play(backend, frames, order: Array((0..<9).reversed()), screen: &screen)
        #expect(screen.frames.count == 9)
    }

    @Test func aResizeStartsAgainAtTheNewSize() {
        let frames = Self.clip(4)
        let small = Self.clip(4, width: 80, height: 48)
        let backend = KittyBackend(background: .none, imageID: 9)
        var screen = KittyScreen()
        _ = play(backend, frames, order: [0, 1, 2], screen: &screen)
        backend.invalidate()
        _ = play(backend, small, order: [2, 3, 0], screen: &screen)
        #expect(screen.frames.count == 3 && screen.frames[0].width == 80)
    }

    @Test func pastTheBudgetTheRootFrameIsEdited() {
        let frames = Self.clip(10)
        let frameBytes = frames[0].width * frames[0].height * 4
        let backend = KittyBackend(background: .none, storageBudget: frameBytes * 4, imageID: 3)
        var screen = KittyScreen()
        let sizes = play(backend, frames, order: Array(0..<10) + Array(0..<10), screen: &screen)
        #expect(backend.editing)
        #expect(screen.frames.count == 1, "past the budget one frame is kept, edited in place")
        // After the restart (frame 4), each frame is its changed rectangle.
        #expect(sizes[5...].allSatisfy { $0 < sizes[0] / 2 }, "\(sizes)")
    }

    /// kitty keeps the frames it stores; not once editing one in place,
    /// nor in a preview (edited from the start), nor where it does not animate.
    @Test func keepsFramesWhileStoringThem() {
        let frames = Self.clip(2)
        let backend = KittyBackend(background: .none, imageID: 12)
        #expect(backend.keepsFrames)
        _ = backend.render(frames[0], index: 0, placement: Self.placement(frames[0]))
        #expect(backend.handleReply(.kittyGraphics(id: 12, message: "ENOSPC:no space")))
        #expect(!backend.keepsFrames)
        #expect(!KittyBackend(background: .none, quiet: true).keepsFrames)
        #expect(!KittyBackend(background: .none, animates: false).keepsFrames)
    }

    @Test func aRefusalSwitchesToEditing() {
        let frames = Self.clip(6)
        let backend = KittyBackend(background: .none, imageID: 11)
        var screen = KittyScreen()
        _ = play(backend, frames, order: [0, 1, 2], screen: &screen)
        #expect(backend.handleReply(.kittyGraphics(id: 11, message: "ENOSPC:no space")))
        #expect(!backend.handleReply(.kittyGraphics(id: 11, message: "OK")))
        _ = play(backend, frames, order: [3, 4, 5, 0], screen: &screen)
        #expect(backend.editing, "a refusal switches to editing in place")
        #expect(screen.frames.count == 1)
    }

    /// Previews: no command asks for a reply (it would land in the shell's
    /// input), frames are edited into one (no refusal could be heard), and
    /// the box's image is deleted before the first upload.
    @Test func quietAsksForNoReplyAndEditsOneFrame() {
        let frames = Self.clip(4)
        let backend = KittyBackend(background: .none, imageID: 77, quiet: true)
        var screen = KittyScreen()
        var all: [UInt8] = []
        for i in 0..<4 {
            let bytes = backend.render(frames[i], index: i, placement: Self.placement(frames[i]))
            // The box's previous preview (same id), which the delete removes.
            if i == 0 { screen.feed(Array("\u{1B}_Ga=T,i=77,f=100,q=2;\u{1B}\\".utf8)) }
            all += bytes
            screen.feed(bytes)
            #expect(screen.shown == frames[i], "frame \(i)")
        }
        #expect(screen.frames.count == 1, "one frame, edited in place")
        let text = String(decoding: all, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}_Ga=d,d=I,i=77,q=2"), "the box's old image deleted first")
        let commands = text.split(separator: "\u{1B}_G").map { $0.prefix(while: { $0 != ";" && $0 != "\u{1B}" }) }
        #expect(commands.count >= 5 && commands.allSatisfy { $0.contains("q=2") }, "\(commands)")
        #expect(!text.contains("q=1"))
    }

    @Test func backgroundsAreComposedBeforeUpload() {
        let frames = Self.clip(2, alpha: true)
        let backend = KittyBackend(background: .color(0, 0, 255), imageID: 1)
        var screen = KittyScreen()
        screen.feed(backend.render(frames[0], index: 0, placement: Self.placement(frames[0])))
        let shown = screen.shown!
        #expect(stride(from: 3, to: shown.pixels.count, by: 4).allSatisfy { shown.pixels[$0] == 255 }, "opaque")
        #expect(shown.pixel(x: 0, y: 0) == (0, 0, 255, 255), "a transparent pixel shows the background")
    }

    /// Noise deflates to nothing less: after a PNG that saved less than a
    /// tenth, the next 15 uploads are raw RGB (RGBA where a pixel is not
    /// opaque), then PNG is tried again. Ten noise frames, then ten of a
    /// smooth gradient: the first gradient frames fall within the raw run
    /// (1 + 9 + 6 = 16 uploads), the last four are PNG; every frame still
    /// shows exactly. The detailed sprite clip deflates, and stays PNG.
    @Test(arguments: [false, true])
    func incompressibleFramesGoRaw(alpha: Bool) {
        var rng = FuzzRandom(alpha ? 7 : 8)
        let frames = (0..<20).map { f in
            RGBAImage.drawn(width: 64, height: 48) { x, y in
                guard f < 10 else { return (UInt8(x + f), UInt8(y * 2), 128, 255) }
                let v = rng.next()
                return (
                    UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16),
                    alpha ? UInt8(truncatingIfNeeded: v >> 24) : 255
                )
            }
        }
        let backend = KittyBackend(background: .none, imageID: 5)
        var screen = KittyScreen()
        _ = play(backend, frames, order: Array(0..<20), screen: &screen)
        let want = alpha ? ["32": 10, "24": 6, "100": 4] : ["24": 16, "100": 4]
        #expect(screen.formats == want, "\(screen.formats)")

        var sprites = KittyScreen()
        _ = play(KittyBackend(background: .none, imageID: 6), Self.clip(6), order: Array(0..<6), screen: &sprites)
        #expect(sprites.formats == ["100": 6], "\(sprites.formats)")
    }

    @Test func finishDeletesTheImage() {
        let frames = Self.clip(2)
        let backend = KittyBackend(background: .none, imageID: 42)
        var screen = KittyScreen()
        _ = play(backend, frames, order: [0, 1], screen: &screen)
        screen.feed(backend.finish())
        #expect(screen.shown == nil && screen.imageID == nil)
    }

    @Test func tmuxWrapsEveryCommand() {
        let frames = Self.clip(2)
        let backend = KittyBackend(background: .none, tmux: true, imageID: 2)
        let bytes = backend.render(frames[0], index: 0, placement: Self.placement(frames[0]))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        // Unwrapped, it is the plain stream byte for byte.
        let plain = KittyBackend(background: .none, imageID: 2).render(frames[0], index: 0, placement: Self.placement(frames[0]))
        #expect(Self.unwrapTmux(bytes) == plain)
        // Every kitty command inside a wrapper: as many wrapped as plain ones.
        let commands = String(decoding: plain, as: UTF8.self).components(separatedBy: "\u{1B}_G").count - 1
        let wrapped = text.components(separatedBy: "\u{1B}Ptmux;\u{1B}\u{1B}_G").count - 1
        #expect(commands >= 2 && wrapped == commands, "\(wrapped) of \(commands) commands wrapped")
    }

    /// Removes tmux passthrough framing: `ESC P tmux;` … `ESC \\` with every
    /// ESC inside doubled.
    static func unwrapTmux(_ bytes: [UInt8]) -> [UInt8] {
        let start = Array("\u{1B}Ptmux;".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i...].starts(with: start) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            i += start.count
            while i < bytes.count {
                if bytes[i] == 0x1B && i + 1 < bytes.count && bytes[i + 1] == 0x1B {
                    out.append(0x1B)
                    i += 2
                    continue
                }
                if bytes[i] == 0x1B && i + 1 < bytes.count && bytes[i + 1] == 0x5C {
                    i += 2
                    break
                }
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}

/// A kitty on this machine: pixels through shared-memory objects, which
/// the terminal reads and unlinks; only their names pass through the pty.
struct KittySharedMemoryTests {
    typealias K = KittyBackendTests

    /// The objects named by `stem` left in /dev/shm.
    static func leftovers(_ stem: String?) -> [String] {
        let mine = String((stem ?? "/none").dropFirst())
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []).filter { $0.hasPrefix(mine) }
    }

    @Test func framesGoThroughSharedMemoryExactly() {
        let frames = K.clip(12, alpha: true)
        let backend = KittyBackend(background: .none, imageID: 41, sharedMemory: true)
        var screen = KittyScreen()
        let stem = backend.sharedMemoryStem
        #expect(stem != nil)
        let sizes = K().play(backend, frames, order: Array(0..<12) + Array(0..<12), screen: &screen)
        #expect(screen.sharedMemoryReads == 12, "each frame uploaded once, by shared memory")
        #expect(screen.formats == ["32": 12])
        // A name and the keys: no pixels through the pty.
        #expect(sizes.allSatisfy { $0 < 300 }, "\(sizes)")
        #expect(Self.leftovers(stem) == [])
    }

    /// An object that cannot be made (here its name is taken; a full
    /// /dev/shm the same) sends that upload and the rest through the pty.
    @Test func anObjectThatCannotBeMadeSendsThroughThePty() throws {
        let frames = K.clip(3)
        let backend = KittyBackend(background: .none, imageID: 44, sharedMemory: true)
        let stem = try #require(backend.sharedMemoryStem)
        let fd = shm_open(stem + "1", O_CREAT | O_EXCL | O_RDWR, 0o600)
        try #require(fd >= 0)
        close(fd)
        defer { shm_unlink(stem + "1") }
        var screen = KittyScreen()
        _ = K().play(backend, frames, order: [0, 1, 2], screen: &screen)
        #expect(screen.sharedMemoryReads == 0)
        #expect(backend.sharedMemoryStem == nil)
        #expect(screen.formats.values.reduce(0, +) == 3, "\(screen.formats)")
    }

    /// Short of room (kitty's quota), frames are edited in place, still by
    /// shared memory: the pty was never the problem.
    @Test func aFullQuotaKeepsSharedMemory() {
        let frames = K.clip(4)
        let backend = KittyBackend(background: .none, imageID: 43, sharedMemory: true)
        var screen = KittyScreen()
        _ = K().play(backend, frames, order: [0, 1], screen: &screen)
        #expect(backend.handleReply(.kittyGraphics(id: 43, message: "ENOSPC:no space")))
        _ = K().play(backend, frames, order: [2, 3], screen: &screen)
        #expect(backend.editing)
        #expect(screen.sharedMemoryReads == 4, "\(screen.formats)")
    }

    /// A refusal (an object the terminal could not open) sends the rest
    /// through the pty, and the picture stays exact.
    @Test func aRefusalSendsTheRestThroughThePty() {
        let frames = K.clip(6)
        let backend = KittyBackend(background: .none, imageID: 42, sharedMemory: true)
        var screen = KittyScreen()
        let stem = backend.sharedMemoryStem
        _ = K().play(backend, frames, order: [0, 1, 2], screen: &screen)
        #expect(screen.sharedMemoryReads == 3)
        #expect(backend.handleReply(.kittyGraphics(id: 42, message: "EBADF:Failed to open file")))
        _ = K().play(backend, frames, order: [3, 4, 5], screen: &screen)
        #expect(screen.sharedMemoryReads == 3, "nothing more by shared memory")
        let throughPty = screen.formats["100", default: 0] + screen.formats["24", default: 0]
        #expect(throughPty == 3, "the new root frame and two edits through the pty: \(screen.formats)")
        #expect(backend.sharedMemoryStem == nil)
        #expect(Self.leftovers(stem) == [])
    }

    /// Objects of a player no longer running are removed; those of a
    /// running one stay.
    @Test func staleObjectsOfEndedPlayersAreRemoved() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = "/\(KittySharedMemory.prefix)\(ended.processIdentifier)-0123456789abcdef-1"
        let alive = "/\(KittySharedMemory.prefix)\(getpid())-0123456789abcdef-1"
        for name in [dead, alive] {
            let fd = shm_open(name, O_CREAT | O_RDWR, 0o600)
            try #require(fd >= 0)
            close(fd)
        }
        defer { shm_unlink(alive) }
        #expect(KittySharedMemory.removeStale() >= 1)
        #expect(shm_unlink(dead) != 0, "the ended player's object was removed")
        let fd = shm_open(alive, O_RDONLY, 0)
        #expect(fd >= 0, "the running player's object stays")
        if fd >= 0 { close(fd) }
    }
}
