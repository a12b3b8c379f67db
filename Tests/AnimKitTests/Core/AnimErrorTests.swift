import AnimKit
import AnimTestSupport
import Testing

/// `AnimError`: where and what, each message derived from its typed
/// problem, in the same words as the 1.x cases gave.
struct AnimErrorTests {
    @Test func messagesSayWhereForProblemsInTheData() {
        let cut = AnimError(file: "a.gif", frame: 3, offset: 10, GIFProblem.endsInsideImageData)
        #expect(cut.description == "a.gif: frame 3 at byte 10: truncated: the file ends inside image data")
        #expect(cut.code == .truncated && cut.frame == 3 && cut.offset == 10)
        let bad = AnimError(file: "b.png", offset: 33, PNGProblem.crcMismatch(chunk: "fcTL"))
        #expect(bad.description == "b.png: at byte 33: CRC mismatch in fcTL chunk" && bad.code == .malformed)
        let lib = AnimError(file: "c.webp", frame: 2, LibraryFailure(library: "libwebp", message: "out of memory"))
        #expect(lib.description == "c.webp: frame 2: libwebp: out of memory" && lib.code == .library)
        #expect(AnimError(file: "d", GIFProblem.headerIncomplete).description == "d: truncated: GIF header is incomplete")
    }

    @Test func messagesOfOtherKindsNameTheFileAlone() {
        let over = AnimError(file: "e.gif", LimitExceeded(.frameCount, value: 11, maximum: 10))
        #expect(
            over.description
                == "e.gif: maxFrameCount 11 exceeds the limit of 10 (raise it with DecodingLimits.maxFrameCount)")
        #expect(over.code == .limitExceeded && (over.problem as? LimitExceeded)?.limit == .frameCount)
        let range = AnimError(file: "f", frame: 9, CommonProblem.frameOutOfRange(frame: 9, frameCount: 4))
        #expect(range.description == "f: frame 9 is out of range (the file has 4 frames)" && range.frame == 9)
        let io = AnimError(file: "g", IOFailure(operation: "write", errno: 28, message: "No space left on device"))
        #expect(io.description == "g: cannot write: No space left on device (errno 28)" && io.code == .io)
        #expect(IOFailure(operation: "read", errno: 2).message == "No such file or directory")
        #expect(AnimError(file: "h", CommonProblem.unknownFormat).description == "h: unsupported: not a GIF, PNG or WebP file")
    }

    @Test func errorsAreEqualByPlaceAndTypedProblem() {
        let a = AnimError(file: "x", frame: 1, PNGProblem.noIDAT)
        #expect(a == AnimError(file: "x", frame: 1, PNGProblem.noIDAT))
        #expect(a != AnimError(file: "x", frame: 2, PNGProblem.noIDAT))
        #expect(a != AnimError(file: "x", frame: 1, PNGProblem.noFrames))
        // The same words from another type are another problem.
        #expect(
            AnimError(file: "x", EncodingProblem.noFrame) != AnimError(file: "x", WebPProblem.noFrame)
                && AnimError(file: "x", LimitExceeded(.memory, value: 2, maximum: 1))
                    != AnimError(file: "x", LimitExceeded(.canvasPixels, value: 2, maximum: 1))
        )
    }

    /// Codes and limits are structs: a client's `switch` has a `default`,
    /// so a kind added in 2.x does not break it.
    @Test func codesAndLimitsMatchInASwitch() {
        func kind(_ e: AnimError) -> String {
            switch e.code {
            case .truncated: return "cut"
            case .limitExceeded: return "limit"
            default: return "other"
            }
        }
        #expect(kind(AnimError(file: "x", WebPProblem.endsEarly)) == "cut")
        #expect(kind(AnimError(file: "x", LimitExceeded(.memory, value: 2, maximum: 1))) == "limit")
        #expect(kind(AnimError(file: "x", WebPProblem.noFrame)) == "other")
        #expect(Set(Limit.allCases.map(\.field)).count == 5)
        #expect(
            Limit.allCases.map(\.description) == [
                "maxCanvasPixels", "maxPixelsPerByte", "maxFrameCount", "maxDecodedBytes", "maxMemory",
            ])
    }

    /// A file cut inside its last image: the index error names that frame;
    /// a frame asked for past the end names the frame asked for.
    @Test func errorsNameTheirFrame() throws {
        var bytes = try Fixtures.bytes("gif-suite/animation.gif")
        bytes.removeLast(5)
        let source = try ImageSource(data: bytes, name: "cut.gif")
        let last = source.frameCount - 1
        #expect(source.indexError?.frame == last, "\(String(describing: source.indexError))")
        #expect(
            throws: AnimError(
                file: "cut.gif", frame: last + 5, CommonProblem.frameOutOfRange(frame: last + 5, frameCount: last + 1))
        ) {
            try source.frame(at: last + 5)
        }
    }
}
