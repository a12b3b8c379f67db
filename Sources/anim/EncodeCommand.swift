import AnimKit

/// `anim encode DIR OUT`: an animation from a folder of frames.
enum EncodeCommand: Command {
    static let info = CommandInfo(
        name: "encode", summary: "write an animation from a folder of frames",
        synopsis: ["DIR OUT [options]", "DIR -o OUT [options]"],
        description: """
            Writes the images in DIR, in natural order (frame2 before frame10), as
            the frames of OUT: GIF, APNG or WebP. Frames are PNG files, or any file
            anim reads (its first frame); hidden files, other extensions and OUT
            itself are skipped. All frames must have the size of the first. OUT is
            written to a temporary file and renamed at the end: on any error
            nothing is left and an existing OUT is untouched; - is standard
            output. An option OUT's format cannot honour is refused.
            """,
        groups: [OptionGroup(title: "output", options: [.output]), Option.encoding, Option.edits],
        operands: 1...2, operandCompletion: .directory)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let (dir, out) = try OutputPath.operands(args)
        var (format, options) = try EncodingArguments.parse(args, output: out)
        let files = try frameFiles(in: dir).filter { !isPreviousOutput($0, out) }
        guard !files.isEmpty else {
            throw AnimError(file: dir, CommandProblem.noFrameFiles)
        }
        try OutputPath.check(out, notAnyOf: files)
        // Edits: --fps is the frames' own rate here, so nothing to resample.
        let edits = try EditArguments.parse(args)
        let firstImage = try ImageSource(path: files[0], options: args.decoding()).frame(at: 0)
        let (reshaper, timeline) = try EditArguments.fitting(args) {
            (
                try FrameReshaper(edits.geometry, width: firstImage.width, height: firstImage.height),
                try edits.timeline(durations: Array(repeating: options.defaultDuration, count: files.count))
            )
        }
        let reshaped = !edits.geometry.isIdentity(width: firstImage.width, height: firstImage.height)
        // --max-memory: the encoder, the frame read ahead, the one encoded
        // and the reshaped one; the frame files stand for the output's size.
        let needed = MemoryBudget.encoding(
            format: format, width: reshaper.width, height: reshaper.height, count: timeline.entries.count,
            inputBytes: files.reduce(0) { $0 + Batch.size($1) }, frames: 3)
        if needed > args.limits.maxMemory {
            throw AnimError(file: dir, LimitExceeded(.memory, value: needed, maximum: args.limits.maxMemory))
        }
        if needed > args.limits.maxMemory / 2 { Allocator.tighten() }
        if !reshaped {
            // GIF: one table for all frames when their colours fit one, else
            // the one most share (as convert does): the frames are read twice
            // then, once to count colours.
            options.prepare(for: format, frameCount: files.count) {
                try ImageSource(path: files[$0], options: args.decoding()).frame(at: 0)
            }
        }
        // Every frame must have the first file's size (the reshaper is made for it).
        let first = (name: files[0], width: firstImage.width, height: firstImage.height)
        let transcoder = Transcoder(
            format: format, options: options, count: timeline.entries.count, width: reshaper.width,
            height: reshaper.height, reading: args.decoding()
        ) { i in
            let path = files[timeline.entries[i].frame]
            let image = try ImageSource(path: path, options: args.decoding()).frame(at: 0)
            if image.width != first.width || image.height != first.height {
                throw AnimError(
                    file: path,
                    CommandProblem.frameFileSize(
                        width: image.width, height: image.height, first: first.name, firstWidth: first.width,
                        firstHeight: first.height))
            }
            return (reshaper.apply(image), edits.changesTime ? timeline.entries[i].duration : nil)
        }
        try EncodeRun.write(transcoder, to: out, label: "encode", args)
        return 0
    }

    static let extensions: Set<String> = ["png", "apng", "gif", "webp"]

    /// Whether `file` is OUT and an animation (more than one frame): what
    /// an earlier `anim encode DIR DIR/OUT` wrote, so not a frame. OUT
    /// naming a one-frame image of DIR is still refused as an input.
    static func isPreviousOutput(_ file: String, _ out: String) -> Bool {
        guard OutputPath.same(file, out) else { return false }
        return ((try? ImageSource(path: file))?.frameCount ?? 0) > 1
    }

    /// The image files of `dir`, in natural order.
    static func frameFiles(in dir: String) throws -> [String] {
        guard let d = opendir(dir) else {
            throw AnimError(file: dir, IOFailure(operation: "open folder", errno: errno))
        }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."),
                extensions.contains(name[name.index(after: dot)...].lowercased())
            else { continue }
            names.append(name)
        }
        return names.sorted(by: NaturalOrder.less).map { OutputPath.joined(dir, $0) }
    }
}

/// "frame2" before "frame10": digit runs compare as numbers.
enum NaturalOrder {
    static func less(_ a: String, _ b: String) -> Bool {
        let x = parts(a)
        let y = parts(b)
        for (p, q) in zip(x, y) where p != q {
            switch (p, q) {
            case (.number(let m, let ms), .number(let n, let ns)): return m != n ? m < n : ms < ns
            case (.text(let s), .text(let t)): return s < t
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return x.count != y.count ? x.count < y.count : a < b
    }

    enum Part: Equatable {
        case text(String)
        case number(Double, String)
    }

    static func parts(_ s: String) -> [Part] {
        var out: [Part] = []
        var current = ""
        var digits = false
        func flush() {
            guard !current.isEmpty else { return }
            out.append(digits ? .number(Double(current) ?? 0, current) : .text(current))
            current = ""
        }
        for c in s {
            let d = c.isASCII && c.isNumber
            if d != digits {
                flush()
                digits = d
            }
            current.append(c)
        }
        flush()
        return out
    }
}

/// What the command line finds wrong that the library does not: the
/// frame files of `anim encode`.
enum CommandProblem: AnimProblem {
    /// The folder holds no frame file.
    case noFrameFiles
    /// A frame file's size differs from the first one's.
    case frameFileSize(width: Int, height: Int, first: String, firstWidth: Int, firstHeight: Int)

    var code: AnimError.Code { .malformed }

    var description: String {
        switch self {
        case .noFrameFiles: return "no frames: no .png, .apng, .gif or .webp file in the folder"
        case .frameFileSize(let w, let h, let first, let w0, let h0): return "is \(w)x\(h), not \(w0)x\(h0) like \(first)"
        }
    }
}
