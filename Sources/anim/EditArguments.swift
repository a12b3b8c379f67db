import AnimKit

/// The edit options `anim convert` and `anim encode` share (`FrameEdits`
/// in the library), applied in this order: --frames, --speed, --fps
/// (convert), --reverse, --bounce; on the pixels --crop, then --resize,
/// --fit or --scale.
enum EditArguments {
    static let valued: Set<String> = ["--resize", "--fit", "--scale", "--crop", "--frames", "--speed", "--filter"]
    static let flags: Set<String> = ["--reverse", "--bounce"]

    static let usage = """
          edits (applied in this order: frames, speed, fps, reverse, bounce;
          then on every frame crop, then size):
          --frames LIST        keep these frames, in this order: 0-based
                               ranges and numbers, "0-9", "20-" (to the
                               end), "9-0" (backwards), "0-4,10-14"
          --speed X            play X times as fast (durations divided by X)
          --reverse            play backwards
          --bounce             play forwards then backwards (0 1 2 1)
          --crop WxH+X+Y       keep this rectangle of the canvas
          --resize WxH         this size; "480x" or "x270" keeps the aspect
          --fit WxH            the largest size inside WxH keeping the
                               aspect (never larger)
          --scale F            both sides times F
          --filter lanczos|box how a size changes (default lanczos: Lanczos
                               with three lobes, as Pillow's LANCZOS, sharp
                               and without aliasing; box: the mean of the
                               pixels each output pixel covers, as Pillow's
                               BOX, growing repeats pixels); both weight
                               colours by alpha
        """

    /// The edits on the command line; usage errors name the option.
    static func parse(_ args: ParsedArguments, fps: Double? = nil) throws -> FrameEdits {
        var edits = FrameEdits()
        if let text = args.values["--frames"] {
            guard let s = FrameSelection(text) else {
                throw UsageError(message: "--frames needs ranges like 0-9, 20-, 9-0 or 0-4,10-14, not '\(text)'")
            }
            edits.frames = s
        }
        if let text = args.values["--speed"] {
            guard let v = Double(text), v > 0, v.isFinite, v <= 1000 else {
                throw UsageError(message: "--speed needs a number above 0 (at most 1000), not '\(text)'")
            }
            edits.speed = v
        }
        edits.fps = fps
        edits.reverse = args.flag("--reverse")
        edits.bounce = args.flag("--bounce")
        if let text = args.values["--crop"] {
            guard let r = parseCrop(text) else {
                throw UsageError(message: "--crop needs WxH+X+Y with W and H at least 1, not '\(text)'")
            }
            edits.geometry.crop = r
        }
        let sizes = ["--resize", "--fit", "--scale"].filter { args.values[$0] != nil }
        if sizes.count > 1 { throw UsageError(message: "give one of \(sizes.joined(separator: ", ")), not several") }
        if let text = args.values["--resize"] {
            guard let (w, h) = parseSize(text, sidesOptional: true), w != nil || h != nil else {
                throw UsageError(message: "--resize needs WxH, Wx or xH with sizes at least 1, not '\(text)'")
            }
            edits.geometry.size = .resize(width: w, height: h)
        }
        if let text = args.values["--fit"] {
            guard case (let w?, let h?)? = parseSize(text, sidesOptional: false) else {
                throw UsageError(message: "--fit needs WxH with sizes at least 1, not '\(text)'")
            }
            edits.geometry.size = .fit(width: w, height: h)
        }
        if let text = args.values["--scale"] {
            guard let f = Double(text), f > 0, f.isFinite, f <= 64 else {
                throw UsageError(message: "--scale needs a factor above 0 (at most 64), not '\(text)'")
            }
            edits.geometry.size = .scale(f)
        }
        if let text = args.values["--filter"] {
            guard let f = FrameGeometry.Filter(rawValue: text.lowercased()) else {
                throw UsageError(message: "--filter needs lanczos or box, not '\(text)'")
            }
            edits.geometry.filter = f
        }
        return edits
    }

    /// "WxH", and with `sidesOptional` "Wx" or "xH"; sides at least 1.
    static func parseSize(_ text: String, sidesOptional: Bool) -> (Int?, Int?)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func side(_ s: Substring) -> Int?? {
            if s.isEmpty { return sidesOptional ? .some(nil) : nil }
            guard let v = Int(s), v >= 1, v <= 1 << 20 else { return nil }
            return .some(v)
        }
        guard let w = side(parts[0]), let h = side(parts[1]) else { return nil }
        return (w, h)
    }

    /// "WxH+X+Y".
    static func parseCrop(_ text: String) -> Rect? {
        let plus = text.split(separator: "+", omittingEmptySubsequences: false)
        guard plus.count == 3, case (let w?, let h?)? = parseSize(String(plus[0]), sidesOptional: false),
            let x = Int(plus[1]), let y = Int(plus[2]), x >= 0, y >= 0
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }
}
