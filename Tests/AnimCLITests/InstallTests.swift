import AnimTestSupport
import Foundation
import Testing

/// Issue 26: `Tools/install.sh PREFIX` puts anim, its manual page and its
/// shell completions under PREFIX, where `man` and the shells find them,
/// and `--uninstall` takes exactly those away. The tests install the debug
/// anim the suite built (`ANIM_BINARY`: a release build is a minute or
/// more), except `staticBuildRunsWithoutSwiftLibraries`, which builds as a
/// user's install does.
struct InstallTests {
    /// What an install puts under PREFIX, with its mode.
    static let files: [(path: String, mode: Int)] = [
        ("bin/anim", 0o755),
        ("share/man/man1/anim.1", 0o644),
        ("share/bash-completion/completions/anim", 0o644),
        ("share/zsh/site-functions/_anim", 0o644),
        ("share/fish/vendor_completions.d/anim.fish", 0o644),
    ]
    static let zsh = "/usr/bin/zsh"
    static let fish = "/usr/bin/fish"
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"

    /// `Tools/install.sh ARGS` with `environment` (nil: this process's).
    static func script(_ args: [String], environment: [String: String]? = nil) throws -> CommandResult {
        try Command.run("/bin/bash", [Repository.path("Tools/install.sh")] + args, environment: environment)
    }

    /// A fresh PREFIX with the suite's anim installed in it.
    static func installed() throws -> TempDirectory {
        let prefix = try TempDirectory(prefix: "anim-install")
        let r = try Self.script([prefix.path], environment: Command.environment(adding: ["ANIM_BINARY": CLI.binary.path]))
        try #require(r.status == 0, "\(r.errorText)")
        return prefix
    }

    @Test func installsEachFileWithItsModeAndUninstallRemovesOnlyThem() throws {
        let prefix = try TempDirectory(prefix: "anim-install")
        let version = try CLI.run(["--version"]).stdout
        let r = try Self.script([prefix.path], environment: Command.environment(adding: ["ANIM_BINARY": CLI.binary.path]))
        #expect(r.status == 0, "\(r.errorText)")
        #expect(r.text.isEmpty)
        let firstLine = version.prefix { $0 != "\n" }
        #expect(
            r.errorText.hasSuffix(
                "install: \(firstLine) installed in \(prefix.path) (uninstall: Tools/install.sh --uninstall \(prefix.path))\n"))
        // The debug build loads the toolchain's runtime: said, not refused.
        #expect(r.errorText.contains("install: note: \(CLI.binary.path) loads libswift"))
        #expect(r.errorText.contains("libswiftCore.so"))
        for (path, mode) in Self.files {
            let attributes = try FileManager.default.attributesOfItem(atPath: prefix.file(path))
            #expect(attributes[.posixPermissions] as? Int == mode, "\(path)")
            #expect(r.errorText.contains("install: installed \(prefix.file(path))\n"))
        }
        // What is installed is what the binary prints, and the binary is stripped.
        #expect(
            try String(contentsOfFile: prefix.file(Self.files[1].path), encoding: .utf8) == CLI.run(["help", "--man"]).stdout)
        for (shell, index) in [("bash", 2), ("zsh", 3), ("fish", 4)] {
            let installed = try String(contentsOfFile: prefix.file(Self.files[index].path), encoding: .utf8)
            #expect(installed == (try CLI.run(["completions", shell]).stdout), "\(shell)")
        }
        let size = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 }
        #expect(try size(prefix.file("bin/anim")) < size(CLI.binary.path))
        let run = try Command.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", prefix.file("bin/anim"), "--version"])
        #expect(run.status == 0 && run.text == version)

        // Files of others in the same folders stay.
        try prefix.write("bin/other", [0x23, 0x21], mode: 0o755)
        try prefix.write("share/man/man1/other.1", [0x2E])
        let gone = try Self.script(["--uninstall", prefix.path])
        #expect(gone.status == 0)
        #expect(gone.errorText.hasSuffix("install: 5 of 5 files removed from \(prefix.path)\n"))
        for (path, _) in Self.files { #expect(!FileManager.default.fileExists(atPath: prefix.file(path)), "\(path)") }
        #expect(FileManager.default.fileExists(atPath: prefix.file("bin/other")))
        #expect(FileManager.default.fileExists(atPath: prefix.file("share/man/man1/other.1")))
        let again = try Self.script(["--uninstall", prefix.path])
        #expect(again.status == 0 && again.errorText == "install: 0 of 5 files removed from \(prefix.path)\n")
    }

    @Test func usageErrorsAndAMissingSwiftAreSaid() throws {
        let prefix = try TempDirectory(prefix: "anim-install")
        let usage = "usage: Tools/install.sh [--uninstall] [PREFIX]   (PREFIX defaults to /usr/local)\n"
        let bogus = try Self.script(["--bogus"])
        #expect(bogus.status == 2 && bogus.errorText == "install: unknown option --bogus\n" + usage)
        let two = try Self.script(["a", "b"])
        #expect(two.status == 2 && two.errorText == "install: one PREFIX only, not 'a' and 'b'\n" + usage)
        // No swift on PATH (only the dirname the script runs first) and no
        // ANIM_BINARY: nothing built, nothing installed.
        let tools = try TempDirectory(prefix: "anim-install-path")
        try FileManager.default.createSymbolicLink(atPath: tools.file("dirname"), withDestinationPath: "/usr/bin/dirname")
        let bare = try Self.script([prefix.path], environment: ["PATH": tools.path])
        #expect(bare.status == 1)
        #expect(bare.errorText.hasPrefix("install: swift is not on PATH: install the Swift toolchain (6.0 or later"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path).isEmpty)
    }

    /// `man -l` renders the page, in the C locale (ASCII) and in UTF-8, with
    /// every groff warning on and none given.
    @Test func manPageRendersWithoutWarnings() throws {
        let prefix = try Self.installed()
        for locale in ["C", "C.UTF-8"] {
            let r = try Command.run(
                "/usr/bin/man", ["--warnings=all", "-l", prefix.file("share/man/man1/anim.1")],
                environment: ["PATH": "/usr/bin:/bin", "LC_ALL": locale, "MANWIDTH": "100"])
            #expect(r.status == 0, "\(locale)")
            #expect(r.errorText == "", "\(locale)")
            let lines = r.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.first?.hasPrefix("ANIM(1)") == true && lines.first?.hasSuffix("ANIM(1)") == true, "\(locale)")
            #expect(lines.contains("anim convert IN... --out-dir DIR [--format F] [options]"), "\(locale)")
            #expect(lines.contains("anim convert"), "\(locale): the command's section heading")
            #expect(lines.contains("--out-dir DIR"), "\(locale): the option's entry")
            #expect(lines.contains("-f, --format gif|apng|webp"), "\(locale)")
        }
    }

    /// The installed bash script, sourced in a bare bash, completes
    /// commands, options and an option's values.
    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let prefix = try Self.installed()
        let cases: [([String], String)] = [
            (["anim", "con"], "convert"),
            (["anim", "convert", "--form"], "--format"),
            (["anim", "convert", "--format", ""], "gif apng webp"),
            (["anim", "convert", "-f", ""], "gif apng webp"),
            (["anim", "info", "--js"], "--json"),
            (["anim", "completions", ""], "bash zsh fish"),
        ]
        for (words, expected) in cases {
            let script = """
                source '\(prefix.file("share/bash-completion/completions/anim"))'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _anim; echo "${COMPREPLY[*]}"
                """
            let r = try Command.run("/bin/bash", ["--norc", "--noprofile", "-c", script], environment: ["PATH": "/usr/bin:/bin"])
            #expect(r.status == 0 && r.errorText == "", "\(words)")
            #expect(r.text == expected + "\n", "\(words)")
        }
    }

    /// The bash-completion package finds the script in PREFIX/share when
    /// that is in XDG_DATA_DIRS (its default holds /usr/local/share).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: bashCompletion),
            "bash-completion is not installed (Tools/setup.sh installs it)"))
    func bashCompletionPackageLoadsIt() throws {
        let prefix = try Self.installed()
        let home = try TempDirectory(prefix: "anim-bash-home")
        let script = """
            source \(Self.bashCompletion)
            __load_completion anim && complete -p anim
            """
        let r = try Command.run(
            "/bin/bash", ["--norc", "--noprofile", "-c", script],
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_DIRS": prefix.file("share")])
        #expect(r.status == 0 && r.errorText == "")
        #expect(r.text == "complete -o filenames -F _anim anim\n")
    }

    /// zsh reads the script, and compinit, finding it on fpath, binds it to anim.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: zsh), "zsh is not installed (Tools/setup.sh installs it)"))
    func zshLoadsTheCompletion() throws {
        let prefix = try Self.installed()
        let home = try TempDirectory(prefix: "anim-zsh-home")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path]
        let syntax = try Command.run(Self.zsh, ["-n", prefix.file("share/zsh/site-functions/_anim")], environment: environment)
        #expect(syntax.status == 0 && syntax.errorText == "")
        let script = """
            fpath=('\(prefix.file("share/zsh/site-functions"))' $fpath)
            autoload -Uz compinit && compinit -u -D && print -r -- $_comps[anim]
            """
        let bound = try Command.run(Self.zsh, ["-f", "-c", script], environment: environment)
        #expect(bound.status == 0 && bound.errorText == "")
        #expect(bound.text == "_anim\n")
    }

    /// fish reads the script, and finds it in PREFIX/share when that is in
    /// XDG_DATA_DIRS and anim on PATH (it loads a command's completions
    /// only then).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: fish), "fish is not installed (Tools/setup.sh installs it)"))
    func fishLoadsAndCompletes() throws {
        let prefix = try Self.installed()
        let home = try TempDirectory(prefix: "anim-fish-home")
        let syntax = try Command.run(
            Self.fish, ["-n", prefix.file("share/fish/vendor_completions.d/anim.fish")],
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path])
        #expect(syntax.status == 0 && syntax.errorText == "")
        let environment = [
            "PATH": prefix.file("bin") + ":/usr/bin:/bin", "HOME": home.path, "XDG_DATA_DIRS": prefix.file("share"),
        ]
        let cases: [(String, [String])] = [
            ("anim con", ["convert"]),
            ("anim convert --form", ["--format"]),
            ("anim convert --format ", ["apng", "gif", "webp"]),
        ]
        for (line, expected) in cases {
            let r = try Command.run(Self.fish, ["-c", "complete -C '\(line)'"], environment: environment)
            #expect(r.status == 0 && r.errorText == "", "\(line)")
            // Each line is "candidate<TAB>description".
            #expect(r.text.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == expected, "\(line)")
        }
    }

    /// The install a user runs: a release build with the Swift runtime
    /// linked statically (in .build/install, incremental after the first
    /// run, which takes one to two minutes on two cores). The installed,
    /// stripped binary loads no libswift and runs with an empty environment.
    /// Skipped under a sanitizer, as ClientPackageTests: the build would be
    /// uninstrumented and the plain run covers it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ANIM_SANITIZER"] == nil))
    func staticBuildRunsWithoutSwiftLibraries() throws {
        let prefix = try TempDirectory(prefix: "anim-install")
        var environment = ProcessInfo.processInfo.environment
        environment["ANIM_BINARY"] = nil
        // Niced: the other tests, some of them timed, keep the processors.
        let r = try Command.run(
            "/usr/bin/nice", ["-n", "10", "/bin/bash", Repository.path("Tools/install.sh"), prefix.path],
            environment: environment)
        try #require(r.status == 0, "\(r.errorText.suffix(3000))")
        #expect(!r.errorText.contains("install: note:"), "a static build loads no libswift")
        let binary = prefix.file("bin/anim")
        let ldd = try Command.run("/usr/bin/ldd", [binary])
        #expect(ldd.status == 0)
        #expect(!ldd.text.contains("libswift"), "\(ldd.text)")
        #expect(ldd.text.contains("libwebp.so"), "the C libraries are still shared: \(ldd.text)")
        let version = try Command.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "--version"])
        let debugVersion = try CLI.run(["--version"]).stdout
        #expect(version.status == 0 && version.text == debugVersion)
        // The release build reads a file as the debug build does.
        let info = try Command.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "info", "--json", Repository.demo])
        let debugInfo = try CLI.run(["info", "--json", Repository.demo]).stdout
        #expect(info.status == 0 && info.text == debugInfo)
    }
}
