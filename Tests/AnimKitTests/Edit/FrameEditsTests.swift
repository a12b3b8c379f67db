import Testing

@testable import AnimKit

private func ms(_ v: Int) -> Duration { .milliseconds(v) }

private func pairs(_ t: EditTimeline) -> [[Int]] {
    t.entries.map { [$0.frame, Int($0.duration / .milliseconds(1))] }
}

struct FrameSelectionTests {
    @Test func readsRangesListsAndOpenEnds() throws {
        #expect(try FrameSelection("0-2,5,7-")!.frames(of: 10) == [0, 1, 2, 5, 7, 8, 9])
        #expect(try FrameSelection("3-1")!.frames(of: 10) == [3, 2, 1])
        #expect(try FrameSelection("4")!.frames(of: 5) == [4])
        #expect(try FrameSelection("2-2,0")!.frames(of: 3) == [2, 0])
    }

    @Test(arguments: ["", "a", "1-x", "-3", "1,,2", "1--2", "1-2-3"])
    func rejectsWhatIsNotASelection(text: String) {
        #expect(FrameSelection(text) == nil)
    }

    @Test func aPartPastTheEndNamesIt() {
        #expect(throws: FrameSelection.Problem.self) { try FrameSelection("2-9")!.frames(of: 5) }
        do {
            _ = try FrameSelection("0,7-")!.frames(of: 5)
            Issue.record("no error")
        } catch {
            #expect(error.description == "frame 7- is past the last frame (4)")
        }
    }

    /// What a selection keeps of a damaged file, whose frames end before
    /// those asked for (`anim extract`): parts cut at the last frame.
    @Test func partsAreCutAtTheLastFrame() throws {
        let selection = try #require(FrameSelection("1-3,9,5-0,2-"))
        #expect(selection.frames(within: 3) == [1, 2, 2, 1, 0, 2])
        #expect(selection.frames(within: 0) == [])
        #expect(selection.frames(within: 10) == [1, 2, 3, 9, 5, 4, 3, 2, 1, 0, 2, 3, 4, 5, 6, 7, 8, 9])
    }
}

struct EditTimelineTests {
    let four = EditTimeline(durations: [ms(100), ms(100), ms(100), ms(100)])

    @Test func speedDividesDurations() {
        #expect(pairs(four.speeded(by: 2)) == [[0, 50], [1, 50], [2, 50], [3, 50]])
        #expect(pairs(EditTimeline(durations: [ms(90)]).speeded(by: 0.5)) == [[0, 180]])
    }

    @Test func lowerRateDropsFramesAndKeepsTheLength() {
        // Ticks of 200 ms; their middles (100, 300 ms) fall on frames 1 and 3.
        #expect(pairs(four.resampled(fps: 5)) == [[1, 200], [3, 200]])
        #expect(four.resampled(fps: 5).total == four.total)
        // 150 ms at 10 fps: two ticks (the length rounded to whole ticks).
        let short = EditTimeline(durations: Array(repeating: ms(30), count: 5))
        #expect(pairs(short.resampled(fps: 10)) == [[1, 100], [4, 100]])
    }

    @Test func higherRateMergesTicksBackIntoFrames() {
        let t = EditTimeline(durations: [ms(100), ms(300)])
        #expect(pairs(t.resampled(fps: 20)) == [[0, 100], [1, 300]])
        // Durations not on the tick grid move to it, without drift.
        let odd = EditTimeline(durations: [ms(70), ms(70), ms(70)])
        // Ends 70, 140, 210 ms; ticks of 40 ms, middles 20 60 100 140 180.
        #expect(pairs(odd.resampled(fps: 25)) == [[0, 80], [1, 40], [2, 80]])
    }

    @Test func resampledBoundariesAreOnTicksFromTheStart() {
        // 30 fps: ticks of 33.33 ms; boundaries rounded from the start.
        let t = EditTimeline(durations: Array(repeating: ms(100), count: 30)).resampled(fps: 30)
        #expect(t.entries.count == 30)
        #expect(t.total == .seconds(3))
        let ns = t.entries.map { Int($0.duration / .nanoseconds(1)) }
        #expect(Set(ns) == [100_000_000] || Set(ns).isSubset(of: [99_999_999, 100_000_000, 100_000_001]))
    }

    @Test func reverseAndBounce() {
        #expect(four.reversed().entries.map(\.frame) == [3, 2, 1, 0])
        #expect(four.bounced().entries.map(\.frame) == [0, 1, 2, 3, 2, 1])
        #expect(EditTimeline(durations: [ms(1), ms(2)]).bounced().entries.map(\.frame) == [0, 1])
    }

    @Test func editsApplyInTheStatedOrder() throws {
        // Select 3,2,1,0 (backwards), twice as fast, then bounce.
        var edits = FrameEdits()
        edits.frames = FrameSelection("3-0")
        edits.speed = 2
        edits.bounce = true
        let t = try edits.timeline(durations: [ms(100), ms(200), ms(300), ms(400)])
        #expect(pairs(t) == [[3, 200], [2, 150], [1, 100], [0, 50], [1, 100], [2, 150]])
        // fps after speed: 4 frames of 50 ms at 10 fps are two of 100 ms.
        var fast = FrameEdits()
        fast.speed = 2
        fast.fps = 10
        #expect(pairs(try fast.timeline(durations: Array(repeating: ms(100), count: 4))) == [[1, 100], [3, 100]])
    }
}

struct FrameGeometryTests {
    @Test func sizes() throws {
        func size(_ s: FrameGeometry.Size, crop: Rect? = nil) throws -> [Int] {
            let r = try FrameGeometry(crop: crop, size: s).resolve(width: 640, height: 360)
            return [r.width, r.height]
        }
        #expect(try size(.resize(width: 480, height: nil)) == [480, 270])
        #expect(try size(.resize(width: nil, height: 90)) == [160, 90])
        #expect(try size(.resize(width: 100, height: 100)) == [100, 100])
        #expect(try size(.fit(width: 100, height: 100)) == [100, 56])
        #expect(try size(.fit(width: 2000, height: 2000)) == [640, 360])  // never larger
        #expect(try size(.scale(0.5)) == [320, 180])
        #expect(try size(.scale(2)) == [1280, 720])
        #expect(try size(.resize(width: 50, height: nil), crop: Rect(x: 10, y: 10, width: 100, height: 200)) == [50, 100])
    }

    @Test func badGeometryIsAnError() {
        #expect(throws: FrameGeometry.Problem.self) {
            try FrameGeometry(crop: Rect(x: 600, y: 0, width: 100, height: 10)).resolve(width: 640, height: 360)
        }
        #expect(throws: FrameGeometry.Problem.self) {
            try FrameGeometry(size: .resize(width: 0, height: 10)).resolve(width: 640, height: 360)
        }
        #expect(throws: FrameGeometry.Problem.self) {
            try FrameGeometry(size: .scale(-1)).resolve(width: 640, height: 360)
        }
    }

    @Test func cropKeepsExactlyThePixelsInside() throws {
        var image = RGBAImage(width: 8, height: 6)
        for i in 0..<(8 * 6) {
            image.pixels[i * 4] = UInt8(i)
            image.pixels[i * 4 + 3] = 255
        }
        let r = try FrameReshaper(FrameGeometry(crop: Rect(x: 2, y: 1, width: 3, height: 4)), width: 8, height: 6)
        let out = r.apply(image)
        #expect(out.width == 3 && out.height == 4)
        #expect((0..<12).map { out.pixels[$0 * 4] } == [10, 11, 12, 18, 19, 20, 26, 27, 28, 34, 35, 36])
    }

    @Test func halvingAveragesEachTwoByTwoBlock() throws {
        var image = RGBAImage(width: 4, height: 2)
        let values: [UInt8] = [0, 100, 200, 50, 20, 40, 60, 250]
        for i in 0..<8 {
            image.pixels[i * 4] = values[i]
            image.pixels[i * 4 + 3] = 255
        }
        let out = try FrameReshaper(FrameGeometry(size: .scale(0.5), filter: .box), width: 4, height: 2).apply(image)
        #expect(out.width == 2 && out.height == 1)
        #expect([out.pixels[0], out.pixels[4]] == [40, 140])  // (0+100+20+40)/4, (200+50+60+250)/4
    }
}

struct EditedFramesTests {
    /// Five 6x4 frames, frame f filled with value 40·f, lasting (f+1)·100 ms.
    static func source() throws -> ImageSource {
        let out = try ImageDestination(format: .apng)
        for f in 0..<5 {
            var image = RGBAImage(width: 6, height: 4)
            for p in 0..<24 {
                image.pixels[p * 4] = UInt8(40 * f)
                image.pixels[p * 4 + 1] = UInt8(p * 10)
                image.pixels[p * 4 + 3] = 255
            }
            try out.add(image, duration: .milliseconds((f + 1) * 100))
        }
        try out.finish()
        return try ImageSource(data: out.data!)
    }

    @Test func framesComeInTheEditedOrderTimeAndSize() throws {
        var edits = FrameEdits()
        edits.frames = FrameSelection("4-1")
        edits.speed = 2
        edits.geometry = FrameGeometry(crop: Rect(x: 1, y: 1, width: 4, height: 2))
        let edited = try EditedFrames(try Self.source(), edits: edits)
        #expect(edited.count == 4)
        #expect(edited.width == 4 && edited.height == 2)
        #expect(try (0..<4).map { Int(try edited.frame(at: $0).duration! / .milliseconds(1)) } == [250, 200, 150, 100])
        for (i, f) in [4, 3, 2, 1].enumerated() {
            let frame = try edited.frame(at: i).image
            #expect(frame.pixels[0] == UInt8(40 * f))
            // Crop: the first pixel is source pixel (1, 1) = index 7.
            #expect(frame.pixels[1] == 70)
            #expect(frame.pixels[(1 * 4 + 3) * 4 + 1] == 160)  // (4, 2) = index 16
        }
    }

    @Test func aSelectionPastTheEndIsAnError() throws {
        var edits = FrameEdits()
        edits.frames = FrameSelection("3-7")
        #expect(throws: FrameSelection.Problem.self) { try EditedFrames(try Self.source(), edits: edits) }
    }
}
