import AnimTestSupport
import Foundation
import Testing

/// Previews (`--place`, `--inline`, `--frame`, `--clear`) in a real
/// terminal emulator: tmux, its pane read back with `capture-pane`. The
/// screen is filled with x's first, so what changed shows.
struct PreviewTests {
    static let tmux = "/usr/bin/tmux"

    /// The pane's 12 rows of text after `command` ran in a 40×12 pane.
    /// One shell runs the tmux server, waits for the command, reads the pane
    /// and ends the server.
    func screen(_ command: String) throws -> [String] {
        let dir = TempDirectory.make().path
        let fill =
            "i=0; while [ $i -lt 12 ]; do printf xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); [ $i -lt 12 ] && printf '\\n'; done"
        try "\(fill); \(command); touch \(dir)/done; sleep 30\n".write(
            toFile: dir + "/pane.sh", atomically: true, encoding: .utf8)
        let t = "\(Self.tmux) -L anim-preview-\(UUID().uuidString.prefix(8)) -f /dev/null"
        return Array(
            try Self.drive(
                """
                \(t) new-session -d -x 40 -y 12 sh \(dir)/pane.sh
                n=0; while [ ! -e \(dir)/done ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n+1)); done; sleep 0.2
                \(t) capture-pane -p -t 0; \(t) kill-server
                """
            ).prefix(12))
    }

    /// Runs the shell script `driver` (tmux and what it captures) and
    /// returns its output's lines.
    static func drive(_ driver: String) throws -> [String] {
        let r = try Command.run(
            "/bin/sh", ["-c", driver], environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "TERM": "xterm-256color"])
        return r.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    var anim: String { CLI.binary.path }
    var demo: String { Repository.demo }
    let x39 = String(repeating: "x", count: 39)

    func chars(_ s: String) -> [Character] { Array(s) + Array(repeating: " ", count: max(0, 40 - s.count)) }

    /// The screen after `command`, a preview in rows 2-5: `inside` checks
    /// each of those rows (as 40 characters, and as captured); every other
    /// row must have kept its x's.
    @discardableResult
    func expectBox(_ command: String, _ inside: (_ r: Int, _ c: [Character], _ row: String) -> Void) throws -> [String] {
        let rows = try screen(command)
        for (r, row) in rows.enumerated() {
            if (2..<6).contains(r) { inside(r, chars(row), row) } else { #expect(row.hasPrefix(x39), "row \(r) changed: \(row)") }
        }
        return rows
    }

    @Test func placeDrawsInsideTheBoxOnly() throws {
        guard access(Self.tmux, X_OK) == 0 else { return }
        let rows = try expectBox("\(anim) play \(demo) --place 10x4@5,2 --frame 0 --protocol text --colors 24bit") { r, c, row in
            #expect(String(c[0..<5]) == "xxxxx", "row \(r): \(row)")
            #expect(String(c[15..<39]) == String(repeating: "x", count: 24), "row \(r): \(row)")
            #expect(!c[5..<15].allSatisfy { $0 == "x" }, "row \(r) was not drawn: \(row)")
        }
        #expect(rows.count == 12)
    }

    /// The box is the preview's: what the picture does not cover is blank
    /// (a smaller picture leaves nothing of the last preview there).
    @Test func placeBlanksTheRestOfItsBox() throws {
        guard access(Self.tmux, X_OK) == 0 else { return }
        // The demo (3:2) in a 20×4 box of half blocks: 12 columns of it.
        try expectBox("\(anim) play \(demo) --place 20x4@5,2 --frame 0 --protocol text --colors 24bit") { r, c, row in
            #expect(String(c[0..<5]) == "xxxxx", "row \(r): \(row)")
            #expect(!c[5..<17].contains(" "), "row \(r) was not drawn: \(row)")
            #expect(String(c[17..<25]) == String(repeating: " ", count: 8), "row \(r): \(row)")
            #expect(String(c[25..<39]) == String(repeating: "x", count: 14), "row \(r): \(row)")
        }
    }

    @Test func clearLeavesTheBoxBlank() throws {
        guard access(Self.tmux, X_OK) == 0 else { return }
        try expectBox("\(anim) play \(demo) --place 10x4@5,2 --frame 0 --protocol text --clear") { r, c, row in
            #expect(String(c[5..<15]) == String(repeating: " ", count: 10), "row \(r): \(row)")
            #expect(String(c[15..<39]) == String(repeating: "x", count: 24), "row \(r): \(row)")
        }
    }

    @Test func inlineDrawsBelowTheCursorAndLeavesItBelowThePicture() throws {
        guard access(Self.tmux, X_OK) == 0 else { return }
        // After the x's, clear the screen and print two lines; the picture
        // (at most 4 rows) goes below them, then END on the next line.
        let rows = try screen(
            "printf '\\033[H\\033[2J'; echo one; echo two; \(anim) play \(demo) --inline --frame 0 --protocol text --width 10 --height 4; echo END"
        )
        #expect(rows[0] == "one" && rows[1] == "two")
        let end = try #require(rows.firstIndex(of: "END"), "\(rows)")
        #expect(end >= 3 && end <= 6, "\(rows)")
        for r in 2..<end { #expect(!rows[r].trimmingCharacters(in: .whitespaces).isEmpty, "row \(r) empty: \(rows)") }
    }

    /// fzf itself (Tools/setup.sh installs it) with the README's line, in
    /// a 60×16 tmux pane read while fzf runs: its preview window, the right
    /// half, holds the picture; the list on the left has none of it.
    @Test func fzfPreviewWindowShowsThePicture() throws {
        guard access("/usr/bin/fzf", X_OK) == 0, access(Self.tmux, X_OK) == 0 else { return }
        let dir = Repository.path("Animations")
        let bin = CLI.binary.deletingLastPathComponent().path
        let t = "\(Self.tmux) -L anim-fzf-\(UUID().uuidString.prefix(8)) -f /dev/null"
        let rows = try Self.drive(
            """
            \(t) new-session -d -x 60 -y 16 "cd \(dir) && printf 'demo.gif\\\\n' | PATH=\(bin):\\$PATH fzf --preview 'anim play {} --frame 0'"
            sleep 3; \(t) capture-pane -p -t 0; \(t) kill-server
            """)
        let blocks = rows.map { row in Array(row).enumerated().filter { "▀▄█".contains($0.element) }.map(\.offset) }
        #expect(blocks.filter { !$0.isEmpty }.count >= 6, "\(rows)")
        #expect(blocks.allSatisfy { $0.allSatisfy { $0 >= 30 } }, "\(rows)")
        #expect(rows.contains { $0.contains("> demo.gif") }, "\(rows)")
    }

    /// fzf's call: output into a pipe, the box from its environment.
    @Test func intoAPipeAsLines() throws {
        let r = try CLI.run(
            ["play", demo, "--frame", "2", "--colors", "24bit"],
            environment: ["FZF_PREVIEW_COLUMNS": "20", "FZF_PREVIEW_LINES": "6"])
        #expect(r.status == 0, "\(r.stderr)")
        // No absolute positions: lines from the top left.
        #expect(r.stdout.range(of: "\u{1B}\\[[0-9;]*H", options: .regularExpression) == nil)
        let lines = r.stdoutData.split(separator: 0x0A)  // (CR LF is one Character in Swift)
        #expect(lines.count >= 2 && lines.count <= 6, "\(lines.count) lines")
    }

    @Test(arguments: [["--place", "10x4"], ["--place", "0x4@1,1"], ["--place", "10x4@-1,0"], ["--clear"], ["--frame", "-1"]])
    func badPreviewOptionsAreUsageErrors(args: [String]) throws {
        let r = try CLI.run(["play", demo] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(args[0]))
    }
}
