import AnimTestSupport
import Dispatch
import Testing

@testable import AnimKit

struct FrameCacheTests {
    static func image(_ w: Int, _ h: Int, _ v: UInt8 = 1) -> RGBAImage {
        RGBAImage(width: w, height: h, trusting: [UInt8](repeating: v, count: w * h * 4))
    }

    @Test func costIsPixelsPlusOverhead() {
        #expect(FrameCache.cost(width: 10, height: 5) == 200 + FrameCache.entryOverhead)
        let cache = FrameCache(frameCount: 4, limitBytes: 10_000)
        cache.insert(Self.image(10, 5), at: 0)
        cache.insert(Self.image(3, 3), at: 1)
        let s = cache.statistics
        #expect(s.bytesInUse == 200 + 36 + 2 * FrameCache.entryOverhead && s.entries == 2)
        #expect(cache.audit.totalCost == s.bytesInUse)
    }

    @Test func evictsTheFrameUsedLastForward() {
        let one = FrameCache.cost(width: 4, height: 4)
        let cache = FrameCache(frameCount: 10, limitBytes: one * 3)
        for i in 0..<3 { #expect(cache.insert(Self.image(4, 4), at: i)) }
        #expect(!cache.insert(Self.image(4, 4), at: 3), "frame 3 is used after 0, 1, 2: refused")
        cache.setPlayhead(5, direction: .forward)
        // From 5 forward, 0, 1, 2 come back after 5 to 8 more frames; 6 is next.
        #expect(cache.insert(Self.image(4, 4), at: 6))
        #expect(cache.audit.indices == [0, 1, 6])
        #expect(cache.insert(Self.image(4, 4), at: 7))
        #expect(cache.audit.indices == [0, 6, 7])
        #expect(cache.statistics.evictions == 2 && cache.statistics.refusals == 1)
    }

    @Test func evictsTheFrameUsedLastBackward() {
        let one = FrameCache.cost(width: 4, height: 4)
        let cache = FrameCache(frameCount: 10, limitBytes: one * 3)
        cache.setPlayhead(5, direction: .backward)
        for i in [5, 4, 3] { #expect(cache.insert(Self.image(4, 4), at: i)) }
        cache.setPlayhead(3, direction: .backward)
        // Backward from 3: 2 is next, then 1, 0, 9, ... 5 and 4 come last.
        #expect(cache.insert(Self.image(4, 4), at: 2))
        #expect(cache.audit.indices == [2, 3, 5])  // 4 comes back last: 3, 2, 1, 0, 9, ..., 5, 4
        #expect(cache.insert(Self.image(4, 4), at: 1))
        #expect(cache.audit.indices == [1, 2, 3])
    }

    @Test func theFrameAboutToBeShownSurvives() {
        let one = FrameCache.cost(width: 4, height: 4)
        let cache = FrameCache(frameCount: 10, limitBytes: one)
        cache.insert(Self.image(4, 4), at: 9)
        cache.setPlayhead(9, direction: .forward)
        #expect(!cache.insert(Self.image(4, 4), at: 0), "the only room holds the frame on screen")
        #expect(cache.audit.indices == [9])
    }

    @Test func countLimit() {
        let cache = FrameCache(frameCount: 10, limitBytes: 1 << 30, limitCount: 2)
        cache.insert(Self.image(1, 1), at: 2)
        cache.insert(Self.image(1, 1), at: 1)
        cache.insert(Self.image(1, 1), at: 0)
        #expect(cache.audit.indices == [0, 1])
    }

    @Test func budgetHoldsUnderConcurrentUse() {
        let cost = FrameCache.cost(width: 8, height: 8)
        let cache = FrameCache(frameCount: 50, limitBytes: cost * 7 + 100)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            var rng = RandomAccessTests.SplitMix(state: UInt64(t))
            for _ in 0..<2000 {
                let i = Int.random(in: 0..<50, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: cache.setPlayhead(i, direction: Bool.random(using: &rng) ? .forward : .backward)
                case 1: _ = cache.image(at: i)
                default: cache.insert(Self.image(8, 8, UInt8(i)), at: i)
                }
                let s = cache.statistics
                if s.bytesInUse > cache.limitBytes { Issue.record("over budget: \(s.bytesInUse)") }
            }
        }
        let s = cache.statistics
        #expect(cache.audit.totalCost == s.bytesInUse)
        #expect(s.peakBytes <= cache.limitBytes)
        #expect(cache.audit.indices.allSatisfy { cache.image(at: $0)!.pixels[0] == UInt8($0) })
    }

    @Test func defaultLimitFollowsTheFormula() {
        let limit = FrameCache.defaultLimit
        #expect(limit >= 16 << 20 && limit <= 1 << 30)
    }
}

struct CachedFrameSourceTests {
    /// Plays `loops` loops in order, letting prefetch finish after each
    /// frame; returns the frames decoded in each loop.
    func play(_ frames: CachedFrameSource, loops: Int) throws -> [Int] {
        var perLoop: [Int] = []
        for loop in 0..<loops {
            let before = frames.cache.statistics.framesDecoded
            for i in 0..<frames.source.frameCount {
                _ = try frames.frame(at: i, wraps: loop < loops - 1)
                frames.waitForPrefetch()
                #expect(frames.cache.statistics.bytesInUse <= frames.cache.limitBytes)
            }
            perLoop.append(frames.cache.statistics.framesDecoded - before)
        }
        return perLoop
    }

    func source() throws -> ImageSource {
        try Fixtures.source("extra/long.gif", options: DecodingOptions(decodeAhead: 0))
    }

    @Test func whenEverythingFitsLaterLoopsDecodeNothing() throws {
        let s = try source()
        let frames = CachedFrameSource(source: s, limitBytes: 200 * FrameCache.cost(width: 64, height: 48))
        #expect(try play(frames, loops: 3) == [120, 0, 0])
        #expect(frames.cache.statistics.entries == 120)
    }

    @Test func noThrashWhenTheAnimationIsTwiceTheBudget() throws {
        let s = try source()
        let frames = CachedFrameSource(source: s, limitBytes: 60 * FrameCache.cost(width: 64, height: 48))
        let perLoop = try play(frames, loops: 3)
        // Prefetch near the end of a loop decodes the start of the next one,
        // so count per frame: three loops, at most three decodes each.
        #expect(frames.cache.decodeCounts.allSatisfy { $0 == 3 }, "\(frames.cache.decodeCounts)")
        #expect(perLoop.reduce(0, +) <= 3 * 120 && perLoop[1] >= 60, "\(perLoop)")
        #expect(frames.cache.statistics.peakBytes <= frames.cache.limitBytes)
    }

    @Test func prefetchFollowsTheDirectionAndASeek() throws {
        let one = FrameCache.cost(width: 64, height: 48)
        let frames = CachedFrameSource(source: try source(), limitBytes: 10 * one)
        _ = try frames.frame(at: 0)
        frames.waitForPrefetch()
        #expect(frames.cache.audit.indices == Array(0..<10), "forward from 0: the next nine")
        _ = try frames.frame(at: 60, direction: .backward)
        frames.waitForPrefetch()
        #expect(frames.cache.audit.indices == Array(51...60), "a seek to 60 playing backward: 59 down to 51")
        #expect(frames.cache.decodeCounts.reduce(0, +) == 20, "nothing decoded twice")
    }

    @Test func prefetchedFramesEqualDirectDecodes() throws {
        let frames = CachedFrameSource(source: try source(), limitBytes: 1 << 24)
        let reference = try source()
        for i in [0, 1, 2, 50, 51, 119, 0] {
            #expect(try frames.frame(at: i) == reference.frame(at: i), "frame \(i)")
        }
    }

    @Test func downsampledFramesAreCachedAtTheirSize() throws {
        var options = DecodingOptions(decodeAhead: 0)
        options.maxPixelSize = 16
        let s = try Fixtures.source("extra/long.gif", options: options)
        let frames = CachedFrameSource(source: s, limitBytes: 1 << 20)
        _ = try play(frames, loops: 1)
        #expect(frames.frameCost == FrameCache.cost(width: 16, height: 12))
        let stats = frames.cache.statistics
        #expect(stats.entries == 120)
        #expect(stats.bytesInUse == 120 * frames.frameCost + stats.checkpointBytes)
        #expect(stats.checkpointBytes == stats.checkpoints * (64 * 48 * 4 + FrameCache.entryOverhead))
    }
}

struct CheckpointTests {
    @Test func aSeekStartsFromTheNearestCheckpoint() throws {
        let s = try Fixtures.source("webp/one-keyframe.webp", options: DecodingOptions(decodeAhead: 0))
        #expect(s.frames.filter(\.isKeyframe).count == 1)
        // Room for many bytes but 5 frames: checkpoints stay, frames go.
        let frames = CachedFrameSource(source: s, limitBytes: 1 << 24, limitCount: 5, prefetch: false)
        for i in 0..<40 { _ = try frames.frame(at: i) }
        let stats = frames.cache.statistics
        #expect(stats.checkpoints == 4, "checkpoints after frames 8, 16, 24, 32")
        #expect(frames.cache.audit.totalCost == stats.bytesInUse)
        let before = s.stepCounts.decoded
        let image = try frames.frame(at: 20)
        #expect(s.stepCounts.decoded - before == 4, "frames 17 to 20 from the checkpoint after 16, not 21 from frame 0")
        #expect(image == (try Fixtures.source("webp/one-keyframe.webp").frame(at: 20)))
    }

    @Test func checkpointsCountAgainstTheBudget() throws {
        let s = try Fixtures.source("webp/one-keyframe.webp", options: DecodingOptions(decodeAhead: 0))
        let one = FrameCache.cost(width: s.width, height: s.height)
        let frames = CachedFrameSource(source: s, limitBytes: 6 * one, prefetch: false)
        for i in 0..<40 {
            _ = try frames.frame(at: i)
            #expect(frames.cache.statistics.bytesInUse <= 6 * one)
        }
        #expect(frames.cache.audit.totalCost == frames.cache.statistics.bytesInUse)
    }
}
