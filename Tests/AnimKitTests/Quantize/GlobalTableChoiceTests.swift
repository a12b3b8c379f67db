import Testing

@testable import AnimKit

/// `GlobalTableChoice`: the global table is the one that saves most local
/// tables, not necessarily frame 0's colours.
struct GlobalTableChoiceTests {
    /// A 20×20 frame: `colors` drawn in the top `rows` rows (one colour a
    /// pixel, cycling from `shift`), the rest from `background`.
    static func frame(_ colors: [UInt32], shift: Int, rows: Int, background: [UInt32]) -> RGBAImage {
        var px: [UInt8] = []
        for i in 0..<400 {
            let c = i < rows * 20 ? colors[(i + shift) % colors.count] : background[i % background.count]
            px += [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), 255]
        }
        return RGBAImage(width: 20, height: 20, trusting: px)
    }

    /// Frame 0 of 200 colours of its own; frames 1 and 2 redraw the top
    /// half in 200 other colours. Frame 0's colours as the global table
    /// would leave frames 1 and 2 a local table each; theirs leaves one to
    /// frame 0.
    static let a = (0..<200).map { 0xFF00_0000 | UInt32($0) << 8 }
    static let b = (0..<200).map { 0xFF00_0000 | UInt32($0) << 16 | 0xFF }
    static let frames = [
        frame(a, shift: 0, rows: 20, background: a),
        frame(b, shift: 0, rows: 10, background: a),
        frame(b, shift: 7, rows: 10, background: a),
    ]

    @Test func theSharedTableWins() {
        var choice = GlobalTableChoice(limit: 255)
        for f in Self.frames { choice.add(f) }
        #expect(choice.sets.map { $0?.count } == [200, 200, 200])
        #expect(choice.colors().map(Set.init) == Set(Self.b))
    }

    /// Frames that only reuse frame 0's colours: frame 0's table (nil, the
    /// writer's own choice) when they do not all fit one table with others.
    @Test func frameZerosTableWhenOthersReuseIt() {
        var choice = GlobalTableChoice(limit: 255)
        choice.add(Self.frames[0])
        choice.add(Self.frame(Self.a, shift: 3, rows: 20, background: Self.a))
        choice.add(Self.frame(Self.b, shift: 0, rows: 5, background: Self.a))  // 100 colours, local
        #expect(choice.colors() == nil)
        // All colours fit one table: the union.
        var small = GlobalTableChoice(limit: 255)
        small.add(Self.frame(Array(Self.a.prefix(100)), shift: 0, rows: 20, background: Self.a))
        small.add(Self.frame(Array(Self.b.prefix(100)), shift: 0, rows: 20, background: Self.a))
        #expect(small.colors().map(Set.init) == Set(Self.a.prefix(100)).union(Self.b.prefix(100)))
    }

    /// Written: frame 0 gets a local table, frames 1 and 2 none; every
    /// pixel kept; smaller than with frame 0's table as the global one.
    @Test func writtenWithTheSharedTable() throws {
        func write(_ global: [UInt32]?) throws -> [UInt8] {
            var options = EncodingOptions()
            options.prescan = global.map { .init(colors: $0) }
            let destination = try ImageDestination(format: .gif, options: options)
            for f in Self.frames { try destination.add(f, duration: .milliseconds(100)) }
            try destination.finish()
            return try #require(destination.data)
        }
        var choice = GlobalTableChoice(limit: 255)
        for f in Self.frames { choice.add(f) }
        let shared = try write(choice.colors())
        let plain = try write(nil)
        #expect(shared.count + 500 < plain.count, "\(shared.count) against \(plain.count) bytes")
        let back = try ImageSource(data: shared)
        #expect(back.frameCount == 3)
        for i in 0..<3 { #expect(try back.frame(at: i).pixels == Self.frames[i].pixels, "frame \(i)") }
        let parsed = try shared.withUnsafeBytes { try GIFParser(bytes: $0, file: "x", limits: DecodingLimits()).parse() }
        #expect(parsed.images.map { $0.palette.offset > parsed.headerLength } == [true, false, false])
    }
}
