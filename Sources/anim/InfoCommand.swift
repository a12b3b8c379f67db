import AnimKit

/// `anim info FILE…`: what is inside an animation.
enum InfoCommand: Command {
    static let info = CommandInfo(
        name: "info", summary: "print the canvas, loop count and every frame of an animation",
        synopsis: ["FILE... [options]"],
        description: """
            Prints the format, canvas size, loop count, the metadata the file carries
            (ICC profile, EXIF, XMP, comments and text) and, per frame, its rectangle,
            delay, effective duration, disposal, blending, keyframe and complete flags:
            a block a file. FILE may be - for standard input.
            """,
        groups: [OptionGroup(title: "options", options: [.json, .rawDelays])],
        operands: 1...Int.max,
        epilogue: """
            exit status: 0 ok, 1 a file could not be read or is damaged (what could be
            read is still printed, and the other files are), 2 usage error.
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let options = args.decoding(DecodingOptions(durationPolicy: args.flag(.rawDelays) ? .raw : .browsers))
        if args.operands.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "standard input (-) can be read once") }
        var status: Int32 = 0
        for (n, path) in args.operands.enumerated() {
            do {
                let (source, error) =
                    path == "-"
                    ? try StandardInput.source(options: options)
                    : try {
                        let s = try ImageSource(path: path, options: options)
                        return (s, s.indexError)
                    }()
                let json = args.flag(.json)
                Output.out(json ? Self.json(source, file: path).text + "\n" : (n > 0 ? "\n" : "") + text(source))
                if !args.quiet { Output.warn(source, path) }
                if let error {
                    Output.err("anim: \(error.description)\n")
                    status = 1
                }
            } catch {
                Output.err("anim: \(Limits.describe(error))\n")
                status = 1
            }
        }
        return status
    }

    static func json(_ s: ImageSource, file: String) -> JSONValue {
        let frames = s.frames.map { f in
            JSONValue.object([
                ("index", .int(f.index)),
                ("x", .int(f.rect.x)), ("y", .int(f.rect.y)),
                ("width", .int(f.rect.width)), ("height", .int(f.rect.height)),
                ("delayMs", .number(f.delay.milliseconds)),
                ("durationMs", .number(f.duration.milliseconds)),
                ("dispose", .string(f.dispose.rawValue)),
                ("blend", .string(f.blend.rawValue)),
                ("keyframe", .bool(f.isKeyframe)),
                ("complete", .bool(f.isComplete)),
            ])
        }
        let m = s.metadata
        let text = m.text.map { JSONValue.object([("keyword", .string($0.keyword)), ("text", .string($0.text))]) }
        let metadata = JSONValue.object([
            ("iccProfileBytes", m.iccProfile.map { .int($0.count) } ?? .null),
            ("exifBytes", m.exif.map { .int($0.count) } ?? .null),
            ("xmp", m.xmp.map { .string($0) } ?? .null),
            ("text", .array(text)),
        ])
        return .object([
            ("file", .string(file)),
            ("format", .string(s.format.rawValue)),
            ("width", .int(s.width)),
            ("height", .int(s.height)),
            ("frameCount", .int(s.frameCount)),
            ("loopCount", s.loopCount.map { .int($0) } ?? .null),
            ("plays", .int(s.plays.number)),
            ("frames", .array(frames)),
            ("colorConversion", s.colorConversion.map { .string($0.description) } ?? .null),
            ("decodingMemoryBytes", .int(s.minimumMemory)),
            ("metadata", metadata),
        ])
    }

    /// One line per kind of metadata present (none when there is none).
    static func metadataLines(_ m: ImageMetadata) -> String {
        var out = ""
        if let icc = m.iccProfile { out += "  ICC profile: \(icc.count) bytes\n" }
        if let exif = m.exif { out += "  EXIF: \(exif.count) bytes\n" }
        if let xmp = m.xmp { out += "  XMP: \(xmp.utf8.count) bytes\n" }
        for entry in m.text {
            let text = entry.text.count > 70 ? String(entry.text.prefix(70)) + "…" : entry.text
            let shown = String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
            out += entry.keyword.isEmpty ? "  comment: \(shown)\n" : "  text \(entry.keyword): \(shown)\n"
        }
        return out
    }

    static func text(_ s: ImageSource) -> String {
        let total = s.frames.reduce(Duration.zero) { $0 + $1.duration }
        let loops: String
        switch s.plays {
        case .forever: loops = "loops forever"
        case .count(1): loops = "plays once"
        case .count(let n): loops = "plays \(n) times"
        }
        let raw = s.loopCount.map { " (loop value \($0))" } ?? ""
        var out = "\(s.name): \(s.format.rawValue.uppercased()), \(s.width)x\(s.height), "
        out += "\(s.frameCount) frame\(s.frameCount == 1 ? "" : "s"), \(loops)\(raw), "
        out += "total \(format(total.milliseconds)) ms\n"
        out += metadataLines(s.metadata)
        if let from = s.colorConversion { out += "  colour: converted to sRGB from the \(from)\n" }
        if s.minimumMemory > s.options.limits.maxMemory {
            out += "  memory: decoding needs \(MemoryBudget.describe(s.minimumMemory)), more than the budget of"
            out += " \(MemoryBudget.describe(s.options.limits.maxMemory)): raise it with \(Option.maxMemory.flag) SIZE\n"
        }
        out += "  " + "frame".padding(7) + "rect".padding(22) + "delay".padding(10) + "duration".padding(10)
        out += "dispose".padding(12) + "blend".padding(8) + "key\n"
        for f in s.frames {
            out += "  " + String(f.index).padding(7) + f.rect.description.padding(22)
            out += (format(f.delay.milliseconds) + " ms").padding(10) + (format(f.duration.milliseconds) + " ms").padding(10)
            out += f.dispose.rawValue.padding(12) + f.blend.rawValue.padding(8) + (f.isKeyframe ? "yes" : "no")
            out += (f.isComplete ? "" : "  (incomplete: the file ends inside it)") + "\n"
        }
        return out
    }

    static func format(_ ms: Double) -> String {
        ms == ms.rounded() ? String(Int(ms)) : String((ms * 100).rounded() / 100)
    }
}
