import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

// anim: the command-line tool. One file per subcommand; this one dispatches.

let commands: [String: Command.Type] = [
    "info": InfoCommand.self,
    "extract": ExtractCommand.self,
    "bench": BenchCommand.self,
    "play": PlayCommand.self,
    "encode": EncodeCommand.self,
    "convert": ConvertCommand.self,
    "optimize": OptimizeCommand.self,
]

// Buffers up to 32 MiB (libwebp's per-frame decoding buffers, a 1080p
// frame's LZW indices) come from the heap and are reused, instead of being
// mapped afresh and faulted in page by page for every frame: glibc's
// threshold (128 KiB, raised only as chunks are freed) cost a lossless WebP
// of 640×360×150 111173 page faults over three decodes, 4028 with these.
#if canImport(Glibc)
    mallopt(M_MMAP_THRESHOLD, 32 << 20)
    mallopt(-1, 64 << 20)  // M_TRIM_THRESHOLD (malloc.h; not imported)
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

// Playing: frames and canvases are megabytes each: give them their own
// mappings, so that freeing one returns its memory at once. (glibc otherwise
// raises its mapping threshold after the first free and serves them from the
// heap, which keeps the peak long after the frames are gone.) Encoding keeps
// glibc's default: fresh mappings for every frame's buffers cost it a third
// of its time in page faults.
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32  // <malloc.h>
let M_MMAP_THRESHOLD: Int32 = -3
if !["encode", "convert", "optimize"].contains(arguments.first ?? "") { _ = mallopt(M_MMAP_THRESHOLD, 1 << 20) }
// A file size limit (ulimit -f) reached while writing is an error to
// report, with the temporary file removed, not a death by SIGXFSZ; a
// closed pipe likewise (EPIPE).
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
let status = CLI.run(arguments, commands: commands)
// For tests of the resource limits: the peak memory of this run.
if getenv("ANIM_REPORT_PEAK_RSS") != nil { Output.err("peak RSS: \(Measure.peakRSS()) bytes\n") }
exit(status)
