/// The manual page anim(1), made from the commands' declarations.
enum ManPage {
    static func render(_ commands: [CommandInfo]) -> String {
        var s = """
            .TH ANIM 1 "" "anim \(CLI.version)" "User Commands"
            .SH NAME
            anim \\- play, convert and inspect GIF, APNG and animated WebP
            .SH SYNOPSIS

            """
        for c in commands {
            for line in c.synopsis { s += ".B anim \(c.name)\n\(escape(line))\n.br\n" }
        }
        s += ".B anim\n\\-h | \\-\\-help | \\-V | \\-\\-version\n"
        s += """
            .SH DESCRIPTION
            .B anim
            plays GIF, APNG and animated WebP in the terminal (kitty, sixel and iTerm2
            graphics where the terminal has them, 24-bit colour text cells everywhere),
            writes them frame by frame, converts between them and makes them smaller.
            Each command is described below with its options. An operand \\- is standard
            input, or standard output where it names what is written. Short options
            combine (\\-qj); \\-\\- ends the options.

            """
        s += ".SH COMMANDS\n"
        for c in commands {
            s += ".SS \"anim \(c.name)\"\n\(paragraphs(c.description))"
            for group in c.allGroups where !group.options.isEmpty {
                s += ".PP\n.I \(escape(group.title))\n"
                for o in group.options { s += ".TP\n\(term(o))\n\(escape(o.help))\n" }
            }
            if !c.epilogue.isEmpty { s += ".PP\n" + paragraphs(c.epilogue) }
        }
        s += """
            .SH EXIT STATUS
            0 done; 1 a file could not be read or written (with several files: any of
            them; the others are still done); 2 a usage error (one line on standard error
            names it); 128 + N ended by signal N (129 SIGHUP, 130 SIGINT, 143 SIGTERM),
            nothing half-written left behind; 141 the output was closed.
            .SH ENVIRONMENT
            .TP
            .B COLORTERM
            truecolor or 24bit: play in 24-bit colour.
            .TP
            .B FZF_PREVIEW_COLUMNS, FZF_PREVIEW_LINES
            the size of a preview written to a pipe (play \\-\\-frame).
            .SH EXAMPLES
            .nf
            anim play demo.gif
            anim convert in.gif out.webp \\-\\-lossless
            anim convert *.gif \\-\\-out\\-dir webp \\-\\-format webp \\-\\-stats
            anim optimize \\-q *.gif
            anim encode frames/ out.png \\-\\-fps 24
            anim extract in.webp \\- \\-\\-format pam | ffmpeg \\-f pam_pipe \\-i \\- out.mp4
            .fi
            .SH SEE ALSO
            .BR gifsicle (1),
            .BR img2webp (1),
            .BR chafa (1),
            .BR ffmpeg (1)

            """
        return s
    }

    /// "\fB\-q\fR, \fB\-\-quiet\fR \fIN\fR".
    static func term(_ o: Option) -> String {
        let short = o.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        return short + "\\fB" + escape(o.flag) + "\\fR" + (o.metavar.map { " \\fI" + escape($0) + "\\fR" } ?? "")
    }

    /// Text for roff: backslashes and dashes escaped, "…" written "..."
    /// (groff has no ASCII form of it: `man` in the C locale warned "can't
    /// find special character 'u2026'"), no line starting with a dot or quote.
    static func escape(_ text: String) -> String {
        let s = text.replacing("\\", with: "\\e").replacing("-", with: "\\-").replacing("…", with: "...")
        return s.hasPrefix(".") || s.hasPrefix("'") ? "\\&" + s : s
    }

    /// Paragraphs (blank-line separated) as .PP blocks; indented lines (examples) as they are.
    static func paragraphs(_ text: String) -> String {
        var s = ".PP\n"
        for line in text.trimmingTrailingNewlines.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                s += ".PP\n"
            } else if line.hasPrefix("  ") {
                s += ".nf\n" + escape(String(line)) + "\n.fi\n"
            } else {
                s += escape(String(line)) + "\n"
            }
        }
        return s
    }
}
