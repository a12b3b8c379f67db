/// glibc's allocator settings (malloc.h's mallopt), which Glibc's module
/// does not name.
enum Allocator {
    @_silgen_name("mallopt") private static func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
    private static let M_TRIM_THRESHOLD: Int32 = -1
    private static let M_MMAP_THRESHOLD: Int32 = -3
    private static let M_ARENA_MAX: Int32 = -8

    /// Memory for buffers of a megabyte or more:
    /// - Decoding and encoding: up to 32 MiB (libwebp's per-frame buffers, a
    ///   1080p frame's LZW indices) come from the heap and are reused, not
    ///   mapped and faulted in afresh every frame (lossless WebP spent much
    ///   of its decoding in the kernel so: Tools/bench/RESULTS.md).
    /// - Playing (`play`, `bench --loops`): frames and canvases get their
    ///   own mappings, so freeing one returns its memory at once (the heap
    ///   would keep the peak long after the frames are gone).
    /// - Either way the heap's free top is kept up to 64 MiB for the next
    ///   frame: setting the mapping threshold fixes the trim threshold at
    ///   128 KiB, and playing then gave back and faulted in again every
    ///   frame's smaller buffers (a kitty frame's patch and PNG, a frame's
    ///   indices), at a cost in CPU to every mode.
    static func configure(playing: Bool) {
        _ = mallopt(M_MMAP_THRESHOLD, playing ? 1 << 20 : 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)  // freed buffers stay for the next frame
    }

    /// For work close to `--max-memory`: one heap for every thread, buffers
    /// of 256 KiB or more mapped on their own (freeing one gives it back),
    /// the heap's free top given back above 1 MiB. A heap per thread keeps
    /// up to the trim threshold of freed buffers each, which took extracting
    /// a large animation to WebP well over its budget (`Tools/memory/sweep.py`).
    /// Not the default: decoding is slower (buffers faulted in afresh, one
    /// heap's lock). Call it before the worker threads first allocate.
    static func tighten() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
        _ = mallopt(M_TRIM_THRESHOLD, 1 << 20)
    }
}
