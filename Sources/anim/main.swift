import AnimKit
import AnimTerminal

// anim: the command-line tool. One file per subcommand; this one dispatches.

let arguments = Array(CommandLine.arguments.dropFirst())

// Memory for buffers of a megabyte or more (malloc.h's mallopt):
// - Decoding and encoding: up to 32 MiB (libwebp's per-frame decoding
//   buffers, a 1080p frame's LZW indices) come from the heap and are reused,
//   instead of being mapped afresh and faulted in page by page for every
//   frame. With a 1 MiB threshold, a 1920x1080x40 lossless WebP took 164k
//   page faults over three decode passes (a quarter of its time in the
//   kernel); a 640x360x150 one 111173, 4028 with 32 MiB.
// - Playing (`play`, `bench --loops`): frames and canvases get their own
//   mappings, so that freeing one returns its memory at once (glibc
//   otherwise serves them from the heap, which keeps the peak long after
//   the frames are gone).
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
let M_MMAP_THRESHOLD: Int32 = -3
let M_TRIM_THRESHOLD: Int32 = -1
let playing = arguments.first == "play" || (arguments.first == "bench" && arguments.contains("--loops"))
_ = mallopt(M_MMAP_THRESHOLD, playing ? 1 << 20 : 32 << 20)
if !playing { _ = mallopt(M_TRIM_THRESHOLD, 64 << 20) }  // freed buffers stay for the next frame
// A file size limit (ulimit -f) reached while writing is an error to
// report, with the temporary file removed, not a death by SIGXFSZ; a
// closed pipe likewise (EPIPE).
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
// Every command but play (which restores the terminal itself): a signal
// removes the temporary files being written and ends a progress line.
// (Unblocked too: a parent's Dispatch thread may have blocked them, and
// the worker threads started later inherit this thread's mask.)
if arguments.first != "play" {
    _ = TemporaryFileGuard.hold()
    Terminal.unblockSignals(TemporaryFileGuard.signals)
}
let status = CLI.run(arguments)
// For tests of the resource limits: the peak memory of this run.
if getenv("ANIM_REPORT_PEAK_RSS") != nil { Output.err("peak RSS: \(Measure.peakRSS()) bytes\n") }
exit(status)
