/// glibc's allocator settings (malloc.h's mallopt), which Glibc's module
/// does not name.
enum Allocator {
    @_silgen_name("mallopt") private static func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
    private static let M_TRIM_THRESHOLD: Int32 = -1
    private static let M_MMAP_THRESHOLD: Int32 = -3
    private static let M_ARENA_MAX: Int32 = -8

    /// Memory for buffers of a megabyte or more:
    /// - Decoding and encoding: up to 32 MiB (libwebp's per-frame decoding
    ///   buffers, a 1080p frame's LZW indices) come from the heap and are
    ///   reused, instead of being mapped afresh and faulted in page by page
    ///   for every frame. With a 1 MiB threshold, a 1920x1080x40 lossless
    ///   WebP took 164k page faults over three decode passes (a quarter of
    ///   its time in the kernel); a 640x360x150 one 111173, 4028 with 32 MiB.
    /// - Playing (`play`, `bench --loops`): frames and canvases get their
    ///   own mappings, so that freeing one returns its memory at once (glibc
    ///   otherwise serves them from the heap, which keeps the peak long
    ///   after the frames are gone).
    /// - Either way, the heap's free top is kept up to 64 MiB, for the next
    ///   frame's buffers. Setting the mapping threshold fixes the trim
    ///   threshold at glibc's 128 KiB, and playing then gave back and
    ///   faulted in again every frame's smaller buffers (a kitty frame's
    ///   patch and PNG, a decoded frame's indices): 1280x720 GIF at 80x24,
    ///   kitty 11.9 -> 7.8 ms a frame, sixel 11.3 -> 9.5, text 3.6 -> 3.2
    ///   (Tools/bench/graphics/run.py's pty, best of three).
    static func configure(playing: Bool) {
        _ = mallopt(M_MMAP_THRESHOLD, playing ? 1 << 20 : 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)  // freed buffers stay for the next frame
    }

    /// For work close to `--max-memory`: one heap for every thread, buffers
    /// of 256 KiB or more mapped on their own (so freeing one gives it
    /// back), the heap's free top given back above 1 MiB. By default each
    /// thread that allocates gets a heap of its own, which keeps up to the
    /// trim threshold of freed buffers: extracting a 2000x2000 animation to
    /// WebP under a 200 MiB budget peaked at 323 MiB so, at 196 MiB with
    /// one heap. Not the default: it makes decoding a few per cent slower
    /// (buffers faulted in afresh, one heap's lock). Call it before the
    /// worker threads first allocate.
    static func tighten() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
        _ = mallopt(M_TRIM_THRESHOLD, 1 << 20)
    }
}
