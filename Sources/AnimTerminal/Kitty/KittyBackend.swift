import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Full-resolution frames through kitty's graphics protocol, uploaded once
/// and then shown by number.
///
/// The first frame is the root frame of one image (PNG, or raw where PNG
/// saves nothing: `payload`); a frame not yet in the terminal is the
/// rectangle that changed since a known frame, composed onto it by kitty
/// (`a=f`, `c=` the base, `X=1`); showing a stored frame is one control
/// command (`a=a,c=N`), timed by anim's scheduler (kitty's animation stays
/// stopped), so pause, step, speed and reverse keep working. Past
/// `storageBudget` (kitty's own quota is 320 MB), or when the terminal
/// refuses, the root frame is edited in place instead. Uploads ask for
/// errors only (`q=1`), which come back among the keys to `handleReply`.
///
/// `quiet` (previews): a reply would land in the shell's or the file
/// manager's input, so no command asks for one (`q=2`); a refusal would
/// go unnoticed, so frames are edited into the root frame, and the image
/// of that id is deleted first (a preview in the same box replaces the last).
///
/// `sharedMemory` (a kitty on this machine: `KittySharedMemory`): each
/// upload's pixels go raw (`f=32`) into an object the terminal reads and
/// unlinks; a refusal, or `/dev/shm` full, sends the rest through the pty.
///
/// `animates` false (Konsole ignores animation frames without an error):
/// each frame that changed is sent whole as the image, replacing the last.
public final class KittyBackend: FrameBackend {
    /// What transparent pixels are drawn over.
    public let background: Background
    let command: KittyCommand
    /// The image's id: one per process, so two players in one kitty do not collide.
    let imageID: UInt32
    /// Decoded bytes (4 per pixel) the terminal may hold before frames stop
    /// being added.
    public var storageBudget: Int

    private var held = KittyHeld()
    /// True once frames are no longer added (budget, refusal, or `quiet`).
    private(set) var editing = false
    private let quiet: Bool
    /// Whether the terminal shows animation frames (`a=f`, `a=a`).
    public let animates: Bool
    /// Uploads still to be sent raw (see `payload`).
    private var rawLeft = 0
    /// Where uploads go when not through the pty (nil: through it).
    private var memory: KittySharedMemory?
    /// The start of the shared-memory objects' names, while they are used.
    var sharedMemoryStem: String? { memory?.stem }
    /// Replies asked for: `q=1` (errors), or `q=2` (none) when quiet.
    private var errors: String { quiet ? "q=2" : "q=1" }

    /// A kitty backend drawing over `background`, wrapped for tmux when
    /// `tmux`; `imageID` nil: one from the process id.
    public init(
        background: Background, tmux: Bool = false, storageBudget: Int = 256 << 20, imageID: UInt32? = nil,
        quiet: Bool = false, animates: Bool = true, sharedMemory: Bool = false
    ) {
        self.background = background
        memory = sharedMemory ? KittySharedMemory() : nil
        self.quiet = quiet
        self.animates = animates
        editing = quiet
        command = KittyCommand(tmux: tmux)
        self.storageBudget = storageBudget
        self.imageID = imageID ?? (0x2A00_0000 | UInt32(truncatingIfNeeded: getpid()) & 0x00FF_FFFF)
    }

    /// kitty draws the terminal's pixels.
    public var resolution: BackendResolution { .pixels }

    /// kitty keeps the frames uploaded (unless edited in place or not animating).
    public var keepsFrames: Bool { animates && !editing }

    /// Shows frame `index` by number when the terminal holds it here, else nil.
    public func renderStored(index: Int, placement: Placement) -> [UInt8]? {
        guard animates, placement == held.placement, let frame = held.stored[index] else { return nil }
        return show(frame)
    }

    /// A stored frame by number, else the rectangle that changed as a new
    /// frame (or edited into the root frame), or a new root frame after
    /// `invalidate()` or at a new placement.
    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        if let bytes = renderStored(index: index, placement: placement) { return bytes }
        let image = background.flattened(image)
        guard placement == held.placement, let known = held.known else { return start(image, index: index, placement: placement) }
        if !animates {  // each changed frame a new still image
            return FrameDiff.changedRect(known, image) == nil ? [] : start(image, index: index, placement: placement)
        }
        guard let rect = FrameDiff.changedRect(known, image) else {
            // Same pixels as a frame already there: show that one.
            if !editing { held.stored[index] = held.knownFrame }
            return show(held.knownFrame)
        }
        let patch = image.cropped(to: rect)
        let frameBytes = image.width * image.height * 4
        if editing { return edit(image, patch: patch, rect: rect) }
        if (held.count + 1) * frameBytes > storageBudget {
            // From now on one frame, edited in place: start it afresh.
            editing = true
            return start(image, index: index, placement: placement)
        }
        // A new frame: the known frame plus the rectangle that changed.
        let data = payload(patch)
        var out = command.transmit(
            "a=f,i=\(imageID),\(data.format),c=\(held.knownFrame),x=\(rect.x),y=\(rect.y),X=1,\(errors)",
            data: data.bytes, repeatKeys: true)
        held.count += 1
        held.stored[index] = held.count
        held.known = image
        held.knownFrame = held.count
        out += show(held.count)
        return out
    }

    /// Deletes what was there and sends `image` as a new root frame at the
    /// placement.
    private func start(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        var out = held.placement == nil && held.count == 0 && !quiet ? [] : delete()
        out += Escape.moveTo(row: placement.row, column: placement.column)
        let data = payload(image)
        out += command.transmit("a=T,i=\(imageID),\(data.format),C=1,\(errors)", data: data.bytes)
        if animates { out += command.control("a=a,i=\(imageID),s=1,q=2") }  // stopped: anim times the frames
        held.placement = placement
        held.count = 1
        held.stored = editing ? [:] : [index: 1]
        held.current = 1
        held.knownFrame = 1
        held.known = image
        return out
    }

    /// The root frame edited in place by `patch` (no frames kept).
    private func edit(_ image: RGBAImage, patch: RGBAImage, rect: Rect) -> [UInt8] {
        let data = payload(patch)
        var out = command.transmit(
            "a=f,i=\(imageID),r=1,\(data.format),x=\(rect.x),y=\(rect.y),X=1,\(errors)", data: data.bytes,
            repeatKeys: true)
        held.known = image
        held.knownFrame = 1
        held.current = 0
        out += show(1)
        return out
    }

    private func show(_ frame: Int) -> [UInt8] {
        guard frame != held.current else { return [] }
        held.current = frame
        return command.control("a=a,i=\(imageID),c=\(frame),q=2")
    }

    private func delete() -> [UInt8] { command.control("a=d,d=I,i=\(imageID),q=2") }

    /// The pixels of `image` and the keys that name their format: PNG
    /// (`f=100`; Paeth on every row, deflate level 2: far less CPU than 6
    /// for a few more bytes), or raw RGB (`f=24`, RGBA `f=32` when a pixel
    /// is not opaque) with the size (`s`, `v`) for the `rawRun` uploads
    /// after a PNG within a tenth of the raw size (noise deflates to nothing
    /// less, at most of a frame's CPU); then PNG is tried again.
    private func payload(_ image: RGBAImage) -> (format: String, bytes: [UInt8]) {
        if let memory {
            if let name = image.pixels.withUnsafeBytes({ memory.store($0) }) {
                return ("f=32,s=\(image.width),v=\(image.height),t=s", Array(name.utf8))
            }
            self.memory = nil  // /dev/shm full or closed to us: through the pty from now on
        }
        let opaque = image.isOpaque
        let rawSize = image.width * image.height * (opaque ? 3 : 4)
        if rawLeft > 0 {
            rawLeft -= 1
        } else if let png = PNGFile.encodeQuick(image, level: 2, filter: 4) {
            if png.count * 10 <= rawSize * 9 { return ("f=100", png) }
            rawLeft = Self.rawRun
            if png.count <= rawSize { return ("f=100", png) }
        }
        let size = "s=\(image.width),v=\(image.height)"
        return opaque ? ("f=24,\(size)", image.channels([0, 1, 2])) : ("f=32,\(size)", image.pixels)
    }

    /// Uploads sent raw after a PNG that saved less than a tenth.
    static let rawRun = 15

    /// Forgets what the terminal holds: the next `render` sends a new root frame.
    public func invalidate() {
        held.placement = nil
        held.known = nil
        held.stored = [:]
        held.current = 0
        // `editing` stays: frames are not stored again after a resize.
    }

    /// Deletes the image, and every frame of it, from the terminal.
    public func finish() -> [UInt8] { delete() }

    /// True when the terminal refused a frame of this image (not yet
    /// editing): what it held is forgotten, and the root frame is edited in
    /// place from then on.
    public func handleReply(_ reply: TerminalReply) -> Bool {
        guard !editing, case .kittyGraphics(let id, let message) = reply, id == nil || id == Int(imageID),
            !message.hasPrefix("OK")
        else { return false }
        // Refused: stop adding frames, start again; through the pty unless
        // it was short of room, which shared memory does not change.
        if !message.hasPrefix("ENOSPC") && !message.hasPrefix("ENOMEM") { memory = nil }
        invalidate()
        editing = true  // later refusals of frames already on their way change nothing
        return true
    }
}
