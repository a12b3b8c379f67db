import AnimTestSupport
import Testing

@testable import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// APNG written by `ImageDestination`, read back by `ImageSource`.
struct APNGWriterTests {
    /// A moving opaque square over a gradient, with a translucent corner.
    static func frames(_ count: Int, width: Int = 48, height: Int = 32, alpha: Bool = true) -> [RGBAImage] {
        (0..<count).map { t in
            RGBAImage.drawn(width: width, height: height) { x, y in
                let a: UInt8 = alpha && x < 6 && y < 6 ? UInt8(40 * (x + y) % 256) : 255
                let left = t * 2 % (width - 8)
                if x >= left && x < left + 8 && y >= 10 && y < 18 { return (250, 20, UInt8(t * 7 % 256), a) }
                return (UInt8(x * 255 / width), UInt8(y * 255 / height), 90, a)
            }
        }
    }

    func encode(_ frames: [RGBAImage], durations: [Duration], options: EncodingOptions = EncodingOptions()) throws -> [UInt8] {
        let out = try ImageDestination(format: .apng, options: options)
        for (f, d) in zip(frames, durations) { try out.add(f, duration: d) }
        try out.finish()
        return try #require(out.data)
    }

    @Test func losslessRoundTripWithDurationsAndLoops() throws {
        let frames = Self.frames(20)
        let durations: [Duration] = (0..<20).map { .milliseconds(20 + $0 * 10) }
        var options = EncodingOptions()
        options.plays = 3
        options.keepHiddenColors = true  // frame pixels at alpha 0 keep their colour
        let bytes = try encode(frames, durations: durations, options: options)
        let source = try ImageSource(data: bytes)
        #expect(source.format == .apng)
        #expect(source.frameCount == 20)
        #expect(source.plays == .count(3))
        #expect(source.frames.map(\.duration) == durations)
        for i in 0..<20 { #expect(try source.frame(at: i) == frames[i], "frame \(i)") }
    }

    @Test func onlyTheChangedRectangleIsStored() throws {
        let frames = Self.frames(60, width: 320, height: 240, alpha: false)
        let one = try encode([frames[0]], durations: [.milliseconds(40)])
        let all = try encode(frames, durations: [Duration](repeating: .milliseconds(40), count: 60))
        #expect(all.count * 5 < one.count * 60, "60 frames \(all.count) bytes, one frame \(one.count)")
        let source = try ImageSource(data: all)
        #expect(source.frameCount == 60)
        #expect(source.frames[5].rect.width < 320, "frame 5 covers \(source.frames[5].rect)")
        for i in [0, 1, 30, 59] { #expect(try source.frame(at: i) == frames[i]) }
    }

    @Test func identicalFramesMergeTheirDurations() throws {
        let f = Self.frames(2)
        let bytes = try encode(
            [f[0], f[0], f[0], f[1]], durations: [.milliseconds(30), .milliseconds(40), .milliseconds(50), .milliseconds(60)])
        let source = try ImageSource(data: bytes)
        #expect(source.frameCount == 2)
        #expect(source.frames.map(\.duration) == [.milliseconds(120), .milliseconds(60)])
    }

    @Test func frameRateDurationsStayExact() {
        var fractions = DelayFractions()
        let third = Duration.seconds(1) / 30
        #expect(fractions.next(third) == (1, 30))
        #expect(fractions.next(.milliseconds(40)) == (40, 1000))
        // 7/3 ms has no small denominator: milliseconds with the rest carried.
        let odd = Duration.nanoseconds(2_333_333)
        let sum = (0..<3).map { _ in fractions.next(odd).0 }.reduce(0) { $0 + Int($1) }
        #expect(sum == 7)
    }

    @Test func aFrameOfAnotherSizeIsAClearErrorAndNothingIsLeft() throws {
        let dir = "/tmp/anim-apng-\(getpid())"
        mkdir(dir, 0o755)
        let path = dir + "/out.png"
        let out = try ImageDestination(path: path)
        try out.add(RGBAImage(width: 4, height: 4))
        #expect(
            throws: AnimError(file: path, frame: 1, EncodingProblem.frameSize(width: 5, height: 4, firstWidth: 4, firstHeight: 4))
        ) {
            try out.add(RGBAImage(width: 5, height: 4))
        }
        #expect(access(path, F_OK) != 0)
        var entries = 0
        if let d = opendir(dir) {
            while let e = readdir(d) { if e.pointee.d_name.0 != 46 { entries += 1 } }
            closedir(d)
        }
        #expect(entries == 0, "a temporary file was left behind")
        rmdir(dir)
    }

    /// A write-only descriptor can be patched but not read back: RGBA from
    /// the start, so a frame with many colours after a plain one needs no
    /// rewrite. One opened to append is treated like a pipe.
    @Test func writeOnlyAndAppendingDescriptors() throws {
        let path = "/tmp/anim-apng-fd-\(getpid()).png"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        let plain = RGBAImage(width: 32, height: 32, trusting: [UInt8](repeating: 200, count: 32 * 32 * 4))
        var many = plain
        for i in 0..<(32 * 32) { many.pixels.replaceSubrange((i * 4)..<(i * 4 + 3), with: [UInt8(i & 0xFF), UInt8(i >> 8), 9]) }
        let out = try ImageDestination(fileDescriptor: fd, format: .apng)
        try out.add(plain, duration: .milliseconds(50))
        try out.add(many, duration: .milliseconds(50))
        try out.finish()
        close(fd)
        let source = try ImageSource(path: path)
        #expect(source.frameCount == 2)
        #expect(try source.frame(at: 0) == plain && source.frame(at: 1) == many)
        let appending = open(path, O_WRONLY | O_APPEND)
        defer { close(appending) }
        #expect(throws: AnimError.self) { try ImageDestination(fileDescriptor: appending, format: .apng) }
    }

    @Test func aPipeNeedsTheFrameCountUpFront() throws {
        _ = try withPipe { _, write in
            #expect(throws: AnimError.self) { try ImageDestination(fileDescriptor: write, format: .apng) }
        }
    }
}

/// The pixel form the APNG writer picks, and widening it mid-stream.
struct APNGPixelModeTests {
    static func colorType(_ bytes: [UInt8]) -> UInt8 { bytes[25] }

    func roundTrip(_ frames: [RGBAImage], path: String? = nil) throws -> (bytes: [UInt8], source: ImageSource) {
        let bytes = try ImageDestination.encode(frames, as: .apng, duration: .milliseconds(50))
        let source = try ImageSource(data: bytes)
        #expect(source.frameCount == frames.count)
        for i in 0..<frames.count { #expect(try source.frame(at: i) == frames[i], "frame \(i)") }
        return (bytes, source)
    }

    /// `colors` distinct opaque colours in a 16×16 frame, offset by `shift`.
    static func frame(colors: Int, shift: Int = 0, alpha: UInt8 = 255) -> RGBAImage {
        var px = [UInt8]()
        for i in 0..<256 {
            let c = (i % colors) + shift
            px += [UInt8(c & 0xFF), UInt8(c >> 8), 7, alpha]
        }
        return RGBAImage(width: 16, height: 16, trusting: px)
    }

    @Test func fewColoursArePaletted() throws {
        let (bytes, _) = try roundTrip([Self.frame(colors: 20), Self.frame(colors: 30, shift: 5)])
        #expect(Self.colorType(bytes) == 3)
    }

    @Test func aFrameBeyond256ColoursWidensToRGB() throws {
        // 200 colours, then 200 more: together more than a palette holds.
        let (bytes, _) = try roundTrip([Self.frame(colors: 200), Self.frame(colors: 200, shift: 300), Self.frame(colors: 10)])
        #expect(Self.colorType(bytes) == 2)
    }

    @Test func aTranslucentFrameAfterOpaqueOnesWidensToRGBA() throws {
        var photo = [UInt8]()
        for i in 0..<(64 * 64) { photo += [UInt8(i & 0xFF), UInt8(i >> 4 & 0xFF), UInt8(i >> 8 & 0xFF), 255] }
        let opaque = RGBAImage(width: 64, height: 64, trusting: photo)
        var clear = photo
        for i in stride(from: 3, to: clear.count, by: 16) { clear[i] = 100 }
        let (bytes, _) = try roundTrip([
            opaque, opaque.with(x: 3, y: 3, [1, 2, 3, 255]), RGBAImage(width: 64, height: 64, trusting: clear),
        ])
        #expect(Self.colorType(bytes) == 6)
    }

    @Test func theWidenedFileIsValidForOtherReadersToo() throws {
        // The rewritten file must have consistent sequence numbers and CRCs:
        // decoding checks both, and a second pass through the writer agrees.
        let (bytes, source) = try roundTrip([Self.frame(colors: 100), Self.frame(colors: 250, shift: 40)])
        #expect(Self.colorType(bytes) == 2)
        #expect(source.indexError == nil)
    }
}

extension RGBAImage {
    func with(x: Int, y: Int, _ rgba: [UInt8]) -> RGBAImage {
        var copy = self
        copy.pixels.replaceSubrange(((y * width + x) * 4)..<((y * width + x) * 4 + 4), with: rgba)
        return copy
    }
}
