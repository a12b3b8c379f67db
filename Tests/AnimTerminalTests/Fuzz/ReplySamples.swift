// Replies as terminals send them, with what they parse to: the parser
// tests' table, and the material the reply fuzzers embed and mutate
// (compiled into Tools/fuzz's fuzz-replies too).
#if canImport(AnimTerminal)
    import AnimTerminal
#endif

enum ReplySamples {
    static let esc: UInt8 = 0x1B

    static func csi(_ s: String) -> [UInt8] { [esc, UInt8(ascii: "[")] + Array(s.utf8) }
    static func dcs(_ s: String) -> [UInt8] { [esc, UInt8(ascii: "P")] + Array(s.utf8) + [esc, UInt8(ascii: "\\")] }
    static func apc(_ s: String) -> [UInt8] { [esc, UInt8(ascii: "_")] + Array(s.utf8) + [esc, UInt8(ascii: "\\")] }

    /// Every reply kind, exact bytes → value.
    static let valid: [(bytes: [UInt8], reply: TerminalReply)] = [
        (csi("?62;4;22c"), .primaryAttributes([62, 4, 22])),  // foot
        (csi("?63;1;2;4;6;9;15;22c"), .primaryAttributes([63, 1, 2, 4, 6, 9, 15, 22])),  // xterm -ti vt340
        (csi("?62;c"), .primaryAttributes([62])),  // kitty: a trailing ;
        (csi("?1;2c"), .primaryAttributes([1, 2])),  // tmux
        (csi("?65535c"), .primaryAttributes([65535])),
        (apc("Gi=31;OK"), .kittyGraphics(id: 31, message: "OK")),
        (apc("Gi=31;ENOENT:No such file or directory"), .kittyGraphics(id: 31, message: "ENOENT:No such file or directory")),
        (apc("Gi=4294967295,p=7;OK"), .kittyGraphics(id: 4_294_967_295, message: "OK")),
        (apc("G;EINVAL:bad"), .kittyGraphics(id: nil, message: "EINVAL:bad")),
        (csi("4;1520;1280t"), .textAreaPixels(width: 1280, height: 1520)),
        (csi("6;19;8t"), .cellPixels(width: 8, height: 19)),
        (csi("8;80;160t"), .textAreaCells(columns: 160, rows: 80)),
        (csi("?1;0;1024S"), .graphicsAttribute(item: 1, status: 0, values: [1024])),
        (csi("?2;0;1000;1000S"), .graphicsAttribute(item: 2, status: 0, values: [1000, 1000])),
        (csi("?1;3;0S"), .graphicsAttribute(item: 1, status: 3, values: [0])),
        (dcs("1+r524742=382F382F38"), .termcap(name: "RGB", value: "8/8/8")),
        (dcs("1+r5463"), .termcap(name: "Tc", value: "")),
        (dcs("1+r636f6c6f7273=323536"), .termcap(name: "colors", value: "256")),
        (dcs("0+r"), .termcap(name: "", value: nil)),
        (dcs("0+r5463"), .termcap(name: "Tc", value: nil)),
        (dcs("1$r0;38:2::1:2:3m"), .statusString(valid: true, text: "0;38:2::1:2:3m")),
        (dcs("0$r"), .statusString(valid: false, text: "")),
        (csi("?2026;2$y"), .modeReport(mode: 2026, value: 2)),
        (csi("?25;1R"), .cursorPosition(row: 25, column: 1)),
        (csi("?3;80;1R"), .cursorPosition(row: 3, column: 80)),
        (dcs(">|kitty(0.35.2)"), .terminalVersion("kitty(0.35.2)")),
        (dcs(">|XTerm(390)"), .terminalVersion("XTerm(390)")),
    ]

    /// Shaped like replies but not exactly one: each is dropped whole.
    static let malformed: [[UInt8]] = [
        csi("?65536c"), csi("?000001c"), csi("?c"), csi("?;c"), csi("?1:2c"),
        csi("?" + Array(repeating: "1", count: 33).joined(separator: ";") + "c"),
        csi("6;19t"), csi("6;19;8;1t"), csi("5;1;1t"), csi("6;;8t"), csi("6;19;8$t"),
        csi("?1S"), csi("?1;;5S"), csi("?2026$y"), csi("?2026;2;1$y"), csi("?1;2$c"), csi(">1;2c"), csi("=1c"),
        apc("Gi=31OK"), apc("Gi=x;OK"), apc("Gi=31,i=32;OK"), apc("Gii=31;OK"), apc("Gi=;OK"),
        apc("Gi=4294967296;OK"), apc("Gi=31;O\u{01}K"), apc("Gi=31,;OK"), apc("G=31;OK"),
        dcs("1+r52474"), dcs("1+rZZ"), dcs("1+r01"), dcs("1+r"), dcs("1+r524742=3"), dcs("0+r5463=31"),
        dcs("1$t"), dcs("1$q"), dcs("1$rm\u{7F}"), dcs(">x"), dcs(">|"), dcs("1"),
        [esc, UInt8(ascii: "]")] + Array("11;rgb:0000/0000/0000".utf8) + [0x07],  // OSC: not read
        apc("Gi=31;" + String(repeating: "A", count: 5000)),  // over 4 KiB
        csi("?" + String(repeating: "1;", count: 200) + "1c"),  // over 256 bytes
    ]

    /// Key presses and other input that must pass through as they are.
    static let keys: [[UInt8]] = [
        Array("q".utf8), csi("C"), csi("D"), csi("1;5C"), Array(" ".utf8), [0x03],
        [esc, UInt8(ascii: "O"), UInt8(ascii: "P")], [0xC3, 0xA9], csi("<0;10;5M"), csi("2~"),
        csi("200~") + Array("paste".utf8) + csi("201~"), [esc, UInt8(ascii: "x")], csi("97;5u"), Array("+-0rs".utf8),
    ]
}
