import AnimKit
import AnimTerminal

// anim: the command-line tool. One file per subcommand; this one dispatches.

let arguments = Array(CommandLine.arguments.dropFirst())

let playing = arguments.first == "play" || (arguments.first == "bench" && arguments.contains("--loops"))
Allocator.configure(playing: playing)
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
