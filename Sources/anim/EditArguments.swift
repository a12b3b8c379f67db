import AnimKit

/// The edit options `anim convert` and `anim encode` share (`FrameEdits`
/// in the library), applied in this order: --frames, --speed, --fps
/// (convert), --reverse, --bounce; on the pixels --crop, then --resize,
/// --fit or --scale.
enum EditArguments {
    /// What `body` makes, or a usage error naming the option when the
    /// edits do not fit the input.
    static func fitting<T>(_ args: ParsedArguments, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as FrameSelection.Problem {
            throw UsageError(message: "--frames: \(e)")
        } catch let e as FrameGeometry.Problem {
            throw UsageError(message: "\(args[.crop] != nil ? "--crop" : "size"): \(e)")
        }
    }

    /// The edits on the command line; usage errors name the option.
    static func parse(_ args: ParsedArguments, fps: Double? = nil) throws -> FrameEdits {
        var edits = FrameEdits()
        if let text = args[.frames] { edits.frames = try selection(text) }
        if let v = args.number(.speed) { edits.speed = v }
        edits.fps = fps
        edits.reverse = args.flag(.reverse)
        edits.bounce = args.flag(.bounce)
        if let text = args[.crop] {
            guard let r = parseCrop(text) else {
                throw UsageError(message: "--crop needs WxH+X+Y with W and H at least 1, not '\(text)'")
            }
            edits.geometry.crop = r
        }
        let sizes = [Option.resize, .fit, .scale].filter { args[$0] != nil }.map(\.flag)
        if sizes.count > 1 { throw UsageError(message: "give one of \(sizes.joined(separator: ", ")), not several") }
        if let text = args[.resize] {
            guard let (w, h) = parseSize(text, sidesOptional: true), w != nil || h != nil else {
                throw UsageError(message: "--resize needs WxH, Wx or xH with sizes at least 1, not '\(text)'")
            }
            edits.geometry.size = .resize(width: w, height: h)
        }
        if let text = args[.fit] {
            guard case (let w?, let h?)? = parseSize(text, sidesOptional: false) else {
                throw UsageError(message: "--fit needs WxH with sizes at least 1, not '\(text)'")
            }
            edits.geometry.size = .fit(width: w, height: h)
        }
        if let f = args.number(.scale) { edits.geometry.size = .scale(f) }
        if let text = args[.filter], let f = FrameGeometry.Filter(rawValue: text.lowercased()) { edits.geometry.filter = f }
        return edits
    }

    /// `--frames LIST`.
    static func selection(_ text: String) throws -> FrameSelection {
        guard let s = FrameSelection(text) else {
            throw UsageError(message: "--frames needs ranges like 0-9, 20-, 9-0 or 0-4,10-14, not '\(text)'")
        }
        return s
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
