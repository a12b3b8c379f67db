/// Parses PNG and APNG chunks in Swift (libpng 1.6 has no APNG support) and
/// checks the APNG rules: `acTL` before IDAT with a valid `num_frames`
/// (else the file is its still image, with a warning, as browsers show it;
/// an `acTL` after IDAT quietly); `fcTL` and `fdAT` sequence numbers 0, 1,
/// 2… with no gap or repeat; each frame inside the canvas; a default
/// image's `fcTL` matching IHDR; a data chunk for the last frame; no fewer
/// frames than `num_frames`. Frames found before a broken rule stay usable;
/// the problem becomes the index error.
///
/// Where the specification calls a file an error but Chromium plays it, it
/// is played as Chromium plays it, with a warning (`APNGBrowserRuleTests`):
/// - a second `acTL` is ignored and the first one kept;
/// - an `fcTL` without data before another `fcTL` is skipped, a frame
///   that is not shown but still counts towards `num_frames`;
/// - frames after `num_frames` are not shown.
struct APNGParser {
    let bytes: UnsafeRawBufferPointer
    let file: String
    let limits: DecodingLimits
    /// Called as parsing moves on with the offset reached, so that a mapped
    /// file's pages behind it can be given back.
    var passed: (Int) -> Void = { _ in }

    struct Result {
        var header: PNGHeader
        var frames: [APNGFrameRecord] = []
        var isAnimated = false
        var numPlays = 0
        var error: AnimError?
        var metadata = ImageMetadata()
        var warnings: [any AnimProblem] = []
        var color = PNGColorChunks()
    }

    private struct State {
        var color = PNGColorChunks()
        /// The metadata found, and the bytes it may still take.
        var metadata = (found: ImageMetadata(), budget: ImageMetadata.maximumBlock)
        var warnings: [any AnimProblem] = []
        var header: PNGHeader?
        /// `acTL`'s frame count and plays, once read.
        var actl: (frames: Int, plays: Int)?
        var idat = IDATProgress.notSeen
        var nextSequence = 0
        var frames: [APNGFrameRecord] = []
        var current: APNGFrameRecord?
        /// The IDAT image's data, and whether an `fcTL` made it frame 0.
        var defaultImage = (segments: [PNGBridge.Segment](), isFrame: false)
        /// Whether the animation chunks are still read.
        var animation = AnimationChunks.read
        /// Frames declared by an `fcTL` that had no data before the next
        /// one: counted, not shown.
        var skipped = 0

        var seenIDAT: Bool { idat != .notSeen }
    }

    /// What becomes of the animation chunks: read; ignored, the file being
    /// its still image (an invalid `acTL`, or one after IDAT); or ignored
    /// after `num_frames` frames were found (the `fcTL` and `fdAT` chunks
    /// after them).
    private enum AnimationChunks { case read, stillOnly, complete }

    /// How far the IDAT chunks are: none yet, being read, or over (another
    /// chunk came after them).
    private enum IDATProgress { case notSeen, reading, ended }

    func parse() throws -> Result {
        var walker = PNGChunkWalker(bytes)
        var s = State()
        var failure: AnimError?
        var mark = 0
        loop: while true {
            if walker.offset - mark >= 4 << 20 {
                mark = walker.offset
                passed(mark)
            }
            switch walker.next() {
            case .end:
                failure = AnimError(file: file, frame: s.frames.count, offset: bytes.count, PNGProblem.noIEND)
                break loop
            case .truncated(let at):
                failure = AnimError(file: file, frame: s.frames.count, offset: at, PNGProblem.endsInsideChunk)
                break loop
            case .chunk(let c):
                if c.type == .IEND { break loop }
                if s.header == nil && c.type != .IHDR {
                    throw malformed(nil, c.offset, .firstChunkNotIHDR(chunk: "\(c.type)"))
                }
                if c.type != .IDAT && c.type != .fdAT && !walker.crcMatches(c) {
                    failure = malformed(s.frames.count, c.offset, .crcMismatch(chunk: "\(c.type)"))
                    break loop
                }
                do { try handle(c, &s) } catch let e as AnimError {
                    if s.header == nil { throw e }
                    failure = e
                    break loop
                }
            }
        }
        return try finish(&s, failure)
    }

    private func malformed(_ frame: Int?, _ offset: Int, _ problem: PNGProblem) -> AnimError {
        AnimError(file: file, frame: frame, offset: offset, problem)
    }

    private func handle(_ c: PNGChunk, _ s: inout State) throws {
        var r = ByteReader(bytes, offset: c.dataOffset)
        if s.seenIDAT && c.type != .IDAT { s.idat = .ended }
        switch c.type {
        case .IHDR:
            guard s.header == nil else { throw malformed(nil, c.offset, .secondIHDR) }
            guard c.length == 13, let w = r.u32be(), let h = r.u32be(), let depth = r.u8(), let ct = r.u8(),
                r.skip(2), let il = r.u8()
            else { throw malformed(nil, c.offset, .headerLength) }
            guard w <= 0x7FFF_FFFF, h <= 0x7FFF_FFFF else { throw malformed(nil, c.offset, .headerSize(width: w, height: h)) }
            try limits.checkCanvas(width: Int(w), height: Int(h), file: file)
            let header = PNGHeader(width: Int(w), height: Int(h), bitDepth: depth, colorType: ct, interlace: il)
            guard header.isValid, il <= 1 else {
                throw malformed(nil, c.offset, .headerFormat(colorType: ct, bitDepth: depth, interlace: il))
            }
            s.header = header
        case .PLTE, .tRNS:
            if !s.seenIDAT { s.header?.sharedChunks.append(c) }
        case .acTL:
            // As Chromium, Firefox, Pillow and ffmpeg: an invalid acTL makes
            // the file its still image (`APNGStillFallbackTests`); an acTL
            // after IDAT is no animation by the APNG specification: quietly.
            // A second acTL is ignored, as Chromium plays the first.
            if s.animation == .stillOnly { break }
            if s.seenIDAT && s.actl == nil {
                s.animation = .stillOnly
                break
            }
            if s.actl != nil {
                s.warnings.append(PNGProblem.secondAcTL(offset: c.offset))
                break
            }
            var n: UInt32 = 0
            var plays: UInt32 = 0
            var problem: PNGProblem?
            if c.length != 8 || r.u32be().map({ n = $0 }) == nil || r.u32be().map({ plays = $0 }) == nil {
                problem = .acTLLength(offset: c.offset)
            } else if n == 0 || n > 0x7FFF_FFFF {
                problem = .acTLFrameCount(frames: n, offset: c.offset)
            }
            if let problem {
                s.animation = .stillOnly
                s.warnings.append(problem)
                break
            }
            try limits.checkFrameCount(Int(n), file: file)
            s.actl = (Int(n), Int(plays))
        case .fcTL:
            if s.animation != .read { break }
            try handleFCTL(c, &s)
        case .IDAT:
            if s.idat == .ended { throw malformed(s.frames.count, c.offset, .idatNotConsecutive) }
            s.idat = .reading
            s.defaultImage.segments.append(.init(chunkTypeOffset: c.typeOffset, dataLength: c.length, skip: 0))
        case .fdAT:
            if s.animation != .read { break }
            try checkSequence(c, &s)
            guard s.current != nil, s.seenIDAT else {
                throw malformed(s.frames.count, c.offset, .fdATWithoutFcTL)
            }
            if c.length > 4 { s.current!.segments.append(.init(chunkTypeOffset: c.typeOffset, dataLength: c.length, skip: 4)) }
        case .gAMA, .cHRM, .sRGB:
            s.color.read(c.type, UnsafeRawBufferPointer(rebasing: bytes[c.dataOffset..<(c.dataOffset + c.length)]))
        case .iCCP, .eXIf, .tEXt, .zTXt, .iTXt:
            PNGMetadata.read(
                c.type, UnsafeRawBufferPointer(rebasing: bytes[c.dataOffset..<(c.dataOffset + c.length)]),
                into: &s.metadata.found,
                budget: &s.metadata.budget)
        default:
            break
        }
    }

    private func checkSequence(_ c: PNGChunk, _ s: inout State) throws {
        guard c.length >= 4 else { throw malformed(s.frames.count, c.offset, .chunkTooShort(chunk: "\(c.type)")) }
        let seq = Int(ByteReader.be32(bytes, c.dataOffset))
        guard seq == s.nextSequence else {
            throw malformed(s.frames.count, c.offset, .sequenceNumber(chunk: "\(c.type)", found: seq, expected: s.nextSequence))
        }
        s.nextSequence += 1
    }

    private func handleFCTL(_ c: PNGChunk, _ s: inout State) throws {
        // After IDAT, an fcTL ends the frame before it, whole, whatever is
        // wrong with the fcTL itself: that frame stays usable. (A frame
        // without data is reported below, after the fcTL's own checks.)
        if s.seenIDAT { try? closeFrame(&s, at: c.offset, another: true) }
        if let n = s.actl?.frames, s.frames.count + s.skipped >= n {
            s.animation = .complete
            s.warnings.append(PNGProblem.extraFrames(declared: n, offset: c.offset))
            return
        }
        try checkSequence(c, &s)
        guard let header = s.header else { return }
        let index = s.frames.count + (s.current == nil ? 0 : 1)
        var r = ByteReader(bytes, offset: c.dataOffset + 4)
        guard c.length == 26, let w = r.u32be(), let h = r.u32be(), let x = r.u32be(), let y = r.u32be(),
            let dn = r.u16be(), let dd = r.u16be(), let dop = r.u8(), let bop = r.u8()
        else {
            throw malformed(index, c.offset, .fcTLLength)
        }
        guard w > 0, h > 0, Int(x) + Int(w) <= header.width, Int(y) + Int(h) <= header.height else {
            throw malformed(
                index, c.offset,
                .frameOutsideCanvas(
                    rect: Rect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)), canvasWidth: header.width,
                    canvasHeight: header.height))
        }
        guard dop <= 2, bop <= 1 else { throw malformed(index, c.offset, .disposeOrBlend(dispose: dop, blend: bop)) }
        if !s.seenIDAT {
            guard s.current == nil else { throw malformed(index, c.offset, .secondFcTLBeforeIDAT) }
            guard x == 0, y == 0, Int(w) == header.width, Int(h) == header.height else {
                throw malformed(0, c.offset, .defaultImageFcTL)
            }
            s.defaultImage.isFrame = true
        }
        try closeFrame(&s, at: c.offset)
        try limits.checkFrameCount(s.frames.count + 1, file: file)
        let dispose: DisposeOp = [DisposeOp.none, .background, .previous][Int(dop)]
        s.current = APNGFrameRecord(
            rect: Rect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)),
            delayNumerator: dn, delayDenominator: dd, dispose: dispose,
            blend: bop == 0 ? .source : .over, offset: c.offset)
    }

    /// Ends the frame under construction (it needs data), when there is
    /// one. Without data it is skipped when `another` fcTL follows.
    private func closeFrame(_ s: inout State, at offset: Int, another: Bool = false) throws {
        guard var frame = s.current else { return }
        if s.defaultImage.isFrame && s.frames.isEmpty && frame.segments.isEmpty { frame.segments = s.defaultImage.segments }
        if frame.segments.isEmpty && another {
            s.warnings.append(PNGProblem.fcTLWithoutData(offset: frame.offset))
            s.skipped += 1
            s.current = nil
            return
        }
        guard !frame.segments.isEmpty else {
            throw malformed(s.frames.count, frame.offset, .frameWithoutData)
        }
        s.frames.append(frame)
        s.current = nil
    }

    private func finish(_ s: inout State, _ failure: AnimError?) throws -> Result {
        guard let header = s.header else { throw failure ?? malformed(nil, 8, .noIHDR) }
        var error = failure
        // The frame being read is complete only when the file reached IEND.
        if failure == nil {
            do { try closeFrame(&s, at: bytes.count) } catch let e as AnimError { error = e }
        }
        if s.animation == .stillOnly {
            s.actl = nil
            error = failure  // what the animation chunks would have caused is moot
        }
        guard let numFrames = s.actl?.frames else {
            // No acTL: a plain PNG, whatever fcTL/fdAT it may hold.
            guard !s.defaultImage.segments.isEmpty else { throw failure ?? malformed(0, bytes.count, .noIDAT) }
            let still = APNGFrameRecord(
                rect: Rect(x: 0, y: 0, width: header.width, height: header.height),
                delayNumerator: 0, delayDenominator: 100, dispose: .none,
                blend: .source, segments: s.defaultImage.segments, offset: 8)
            return Result(
                header: header, frames: [still], isAnimated: false, error: failure, metadata: s.metadata.found,
                warnings: s.warnings, color: s.color)
        }
        if error == nil && s.defaultImage.segments.isEmpty {
            error = malformed(s.frames.count, bytes.count, .noIDAT)
        }
        if error == nil && s.frames.count + s.skipped < numFrames {
            error = malformed(
                s.frames.count, bytes.count, .frameCount(declared: numFrames, found: s.frames.count + s.skipped))
        }
        if s.frames.isEmpty { throw error ?? malformed(0, bytes.count, .noFrames) }
        if s.frames[0].dispose == .previous { s.frames[0].dispose = .background }  // APNG spec
        return Result(
            header: header, frames: s.frames, isAnimated: true, numPlays: s.actl?.plays ?? 0, error: error,
            metadata: s.metadata.found,
            warnings: s.warnings, color: s.color)
    }
}
