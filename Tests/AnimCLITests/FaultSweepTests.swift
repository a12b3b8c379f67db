import AnimTestSupport
import Foundation
import Testing

/// Issue 27: every writing command under injected faults (the Nth write,
/// fsync, rename or read failing with ENOSPC or EIO, the input cut in
/// half) and signals at random moments: no crash, a clear message, no
/// temporary file, OUT absent, untouched or whole (`Tools/faults/sweep.py`,
/// its short form here; `.ci/run` runs the whole sweep).
struct FaultSweepTests {
    @Test func theQuickSweepFindsNoProblem() async throws {
        let r = try await Command.offThePool {
            try Command.run(
                "/usr/bin/env", ["python3", "Tools/faults/sweep.py", "--quick"],
                environment: Command.environment(adding: ["ANIM": CLI.binary.path]), directory: Repository.root,
                errorsToOutput: true)
        }
        #expect(r.status == 0, "\(r.text)")
        let summary = r.text.split(separator: "\n").last ?? ""
        #expect(summary.hasPrefix("sweep: ") && summary.hasSuffix(", 0 problems"), "\(summary)")
        // It did inject: faults fired and signals were sent (inputs, runs,
        // faults, signals, problems).
        let numbers = summary.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 5 && numbers[2] > 50 && numbers[3] > 10, "\(summary)")
    }
}
