/// The edits `convert` and `encode` apply (`FrameEdits` in the library).
extension Option {
    static let frames = Option(
        "frames", .text("LIST"),
        help: "these frames, in this order: 0-based ranges and numbers, \"0-9\", \"20-\" (to the end), \"9-0\""
            + " (backwards), \"0-4,10-14\"")
    static let speed = Option(
        "speed", .number("X", above: 0, atMost: 1000), help: "play X times as fast (durations divided by X)")
    static let reverse = Option("reverse", help: "play backwards")
    static let bounce = Option("bounce", help: "play forwards then backwards (0 1 2 1)")
    static let crop = Option("crop", .text("WxH+X+Y"), help: "keep this rectangle of the canvas")
    static let resize = Option("resize", .text("WxH"), help: "this size; \"480x\" or \"x270\" keeps the aspect")
    static let fit = Option(
        "fit", .text("WxH"), help: "the largest size inside WxH keeping the aspect (never larger)")
    static let scale = Option("scale", .number("F", above: 0, atMost: 64), help: "both sides times F")
    static let filter = Option(
        "filter", .choice(["lanczos", "box"]),
        help: "how a size changes (default lanczos: Lanczos with three lobes, as Pillow's LANCZOS, sharp and"
            + " without aliasing; box: the mean of the pixels each output pixel covers, as Pillow's BOX, growing"
            + " repeats pixels); both weight colours by alpha")

    static let edits = OptionGroup(
        title: "edits (in this order: frames, speed, fps, reverse, bounce; then on every frame crop, then size)",
        options: [.frames, .speed, .reverse, .bounce, .crop, .resize, .fit, .scale, .filter])
}
