import AnimKit
import Synchronization

/// Several inputs in one command (`convert IN… --out-dir DIR`, `optimize
/// FILE…`): the files are worked through on every core (the library's
/// worker pool, one file a job), a bad file is reported and passed over,
/// and the status is 1 at the end if any failed. `--stats` prints a JSON
/// line a file; `--skip-existing` leaves an output newer than its input.
struct Batch: Sendable {
    /// An input and where it goes.
    struct Item: Sendable {
        var input: String
        var output: String
    }

    /// What became of one file.
    enum Outcome: String, Sendable {
        /// `partial`: the input is damaged; what decoded before the damage
        /// was written (a failure for the exit status).
        case written, kept, skipped, partial, failed
    }

    let label: String
    /// The command line, for each file: `inBatch`.
    let args: ParsedArguments
    let stats: Bool

    /// `stats`: the command's `--stats`.
    init(label: String, _ args: ParsedArguments, stats: Option) {
        var one = args
        one.inBatch = true
        (self.label, self.args, self.stats) = (label, one, args.flag(stats))
    }

    /// Runs `work` on every item with `args` (it returns what became of
    /// the output); 0 when none failed, else 1.
    func run(_ items: [Item], _ work: @escaping @Sendable (Item, ParsedArguments) throws -> Outcome) -> Int32 {
        let done = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let shown = !args.quiet && isatty(2) == 1
        let printing = Locked(())  // a file's lines together
        // A signal ends the files line too (`TemporaryFileGuard`).
        let hold = shown ? TemporaryFileGuard.hold() : nil
        defer {
            if shown { Output.err("\r\u{1B}[K") }
            Progress.lineShown.store(false, ordering: .relaxed)
            TemporaryFileGuard.release(hold)
        }
        // One lane a core, each taking the next file, the largest first:
        // no more files at once than cores, and no large file left alone
        // at the end while the other cores idle.
        let sizes = items.map { Self.size($0.input) }
        let order = items.indices.sorted { sizes[$0] > sizes[$1] }
        let next = Atomic<Int>(0)
        let lanes = (0..<min(WorkerPool.cores, items.count)).map { _ in
            WorkerPool.shared.submit { [self] in
                while case let k = next.add(1, ordering: .relaxed).oldValue, k < order.count {
                    let item = items[order[k]]
                    let start = Measure.milliseconds()
                    var outcome = Outcome.failed
                    var message: String?
                    if args.flag(.skipExisting) && Self.isNewer(item.output, than: item.input) {
                        outcome = .skipped
                    } else {
                        do {
                            outcome = try work(item, args)
                            if outcome == .partial { failed.add(1, ordering: .relaxed) }
                        } catch {
                            message = Limits.describe(error)
                            failed.add(1, ordering: .relaxed)
                        }
                    }
                    let finished = done.add(1, ordering: .relaxed).newValue
                    printing.withLock { _ in
                        if shown { Output.err("\r\u{1B}[K") }
                        if let message { Output.err("anim: \(message)\n") }
                        if stats { Output.err(Self.line(item, outcome, start: start, error: message) + "\n") }
                        if shown && finished < items.count {
                            Output.err("\(label): \(finished)/\(items.count) files")
                            Progress.lineShown.store(true, ordering: .relaxed)
                        }
                    }
                }
            }
        }
        for lane in lanes { lane.get() }
        return failed.load(ordering: .relaxed) == 0 ? 0 : 1
    }

    static func line(_ item: Item, _ outcome: Outcome, start: Double, error: String?) -> String {
        var fields: [(String, JSONValue)] = [
            ("file", .string(item.input)), ("output", .string(item.output)), ("bytesIn", .int(size(item.input))),
            ("bytesOut", outcome == .failed ? .null : .int(size(item.output))),
            ("seconds", Measure.seconds(since: start)), ("outcome", .string(outcome.rawValue)),
        ]
        if let error { fields.append(("error", .string(error.replacing("\nanim: ", with: "; ")))) }
        return JSONValue.object(fields).text
    }

    static func size(_ path: String) -> Int { OutputPath.status(path).map { Int($0.st_size) } ?? 0 }

    /// Whether `output` exists and was modified after `input`.
    static func isNewer(_ output: String, than input: String) -> Bool {
        guard let o = OutputPath.status(output), let i = OutputPath.status(input) else { return false }
        return (o.st_mtim.tv_sec, o.st_mtim.tv_nsec) > (i.st_mtim.tv_sec, i.st_mtim.tv_nsec)
    }

    /// Two inputs that would write the same output (`a/x.gif` and
    /// `b/x.gif` into one folder) are a usage error, before anything runs.
    static func refuseCollisions(_ items: [Item]) throws {
        var seen: [String: String] = [:]
        for item in items {
            if let other = seen[item.output], other != item.input {
                throw UsageError(message: "\(other) and \(item.input) would both write \(item.output)")
            }
            seen[item.output] = item.input
        }
    }

    /// DIR/NAME with NAME the input's, its extension that of `format`.
    static func output(for input: String, in dir: String, format: OutputFormat) -> String {
        let base = OutputPath.baseName(input)
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        return OutputPath.joined(dir, stem + "." + format.fileExtension)
    }
}
