import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// `Terminfo`: both binary formats with extended capabilities, the
/// system's own files, `tic`'s output, the search order, and garbage.
struct DetectTerminfoTests {
    static func builder(wide: Bool) -> TerminfoBuilder {
        var b = TerminfoBuilder()
        b.wide = wide
        b.numbers = Array(repeating: -1, count: 13) + [wide ? 16_777_216 : 256, 64]
        b.extBools = [("AX", true), ("Tc", true), ("XF", false)]
        b.extNumbers = [("RGB", 8), ("U8", -1)]
        b.extStrings = [("Ss", "\u{1B}[%p1%d q"), ("Se", nil), ("Smulx", "\u{1B}[4:%p1%dm")]
        return b
    }

    @Test(arguments: [false, true])
    func parsesBothFormats(_ wide: Bool) throws {
        let entry = try #require(Terminfo.parse(Self.builder(wide: wide).bytes()))
        #expect(entry.names == ["test", "a test terminal"])
        #expect(entry.colors == (wide ? 16_777_216 : 256))
        #expect(
            entry.extended == [
                "AX": .flag, "Tc": .flag, "RGB": .number(8),
                "Ss": .string(Array("\u{1B}[%p1%d q".utf8)), "Smulx": .string(Array("\u{1B}[4:%p1%dm".utf8)),
            ])
        #expect(entry.hasDirectColor)
    }

    @Test func withoutExtendedPart() throws {
        var b = TerminfoBuilder()
        b.numbers = Array(repeating: 80, count: 14)
        let entry = try #require(Terminfo.parse(b.bytes()))
        #expect(entry.colors == 80 && entry.extended.isEmpty && !entry.hasDirectColor)
    }

    /// The files the system has (skipped where absent): kitty's entry has Tc.
    @Test func systemEntries() throws {
        if access("/usr/share/terminfo/x/xterm-kitty", R_OK) == 0 || access("/lib/terminfo/x/xterm-kitty", R_OK) == 0 {
            let kitty = try #require(Terminfo.load(term: "xterm-kitty", environment: [:]))
            #expect(kitty.names.first == "xterm-kitty")
            #expect(kitty.extended["Tc"] == .flag && kitty.hasDirectColor && kitty.colors == 256)
        }
        if access("/lib/terminfo/x/xterm-256color", R_OK) == 0 || access("/usr/share/terminfo/x/xterm-256color", R_OK) == 0 {
            let xterm = try #require(Terminfo.load(term: "xterm-256color", environment: [:]))
            #expect(xterm.colors == 256 && !xterm.hasDirectColor)
            #expect(xterm.extended["AX"] == .flag)
        }
    }

    /// `tic -x` output read back (skipped without tic), found through
    /// TERMINFO in a temporary directory.
    @Test func ticOutputThroughTERMINFO() throws {
        guard access("/usr/bin/tic", X_OK) == 0 else { return }
        let dir = try TempDirectory()
        let source = dir.path + "/probe.src"
        try dir.write(
            "probe.src",
            Array("probe-direct|probe test,\n\tam, colors#0x1000000, cols#80,\n\tRGB#8, Tc, Xq=\\E[%p1%dq, kbs=^H,\n".utf8))
        #expect(
            try Command.run("/usr/bin/tic", ["-x", "-o", dir.path, source], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
        let entry = try #require(Terminfo.load(term: "probe-direct", environment: ["TERMINFO": dir.path]))
        #expect(entry.names == ["probe-direct", "probe test"])
        #expect(entry.colors == 0x1000000)
        #expect(entry.extended["RGB"] == .number(8) && entry.extended["Tc"] == .flag)
        #expect(entry.extended["Xq"] == .string(Array("\u{1B}[%p1%dq".utf8)))
    }

    @Test func searchOrder() throws {
        let dirs = Terminfo.searchDirectories(environment: ["TERMINFO": "/a", "HOME": "/h", "TERMINFO_DIRS": "/b::/c"])
        #expect(dirs == ["/a", "/h/.terminfo", "/b", "/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/c"])
        // First directory with the file wins; the hex subdirectory works too.
        let one = try TempDirectory()
        let two = try TempDirectory()
        var b = Self.builder(wide: false)
        b.names = "probe-one"
        try one.write("70/probe", b.bytes())  // 0x70 = "p"
        b.names = "probe-two"
        try two.write("p/probe", b.bytes())
        #expect(Terminfo.load(term: "probe", environment: ["TERMINFO_DIRS": one.path + ":" + two.path])?.names == ["probe-one"])
        #expect(
            Terminfo.load(term: "probe", environment: ["TERMINFO": two.path, "TERMINFO_DIRS": one.path])?.names == ["probe-two"])
        // Names that would leave the database are refused.
        for bad in ["../probe", "p/probe", "", ".probe"] {
            #expect(Terminfo.load(term: bad, environment: ["TERMINFO": two.path]) == nil)
        }
    }

    /// A FIFO where the entry should be: not opened for reading, no hang.
    @Test func fifoDoesNotBlock() throws {
        let dir = try TempDirectory()
        mkdir(dir.path + "/f", 0o755)
        #expect(mkfifo(dir.path + "/f/fifo-term", 0o644) == 0)
        let start = SuspendingClock.now
        #expect(Terminfo.load(term: "fifo-term", environment: ["TERMINFO": dir.path]) == nil)
        #expect(SuspendingClock.now - start < .seconds(1))
    }

    /// Every truncation, 20,000 mutations, random bytes: no crash, and
    /// the intact entry still parses.
    @Test func garbageNeverCrashes() {
        let good = Self.builder(wide: true).bytes()
        for n in 0..<good.count { _ = Terminfo.parse(Array(good[..<n])) }
        var rng = FuzzRandom(state: 77)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = good
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                bytes[at] =
                    rng.next() % 2 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : [0x00, 0xFF, 0x7F, 0x80][Int(rng.next() % 4)]
            }
            if Terminfo.parse(bytes) != nil { parsed += 1 }
            _ = Terminfo.parse((0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        #expect(parsed > 0)
        #expect(Terminfo.parse(good)?.hasDirectColor == true)
        #expect(Terminfo.parse([UInt8](repeating: 0, count: Terminfo.maxFileBytes + 1)) == nil)
    }
}
