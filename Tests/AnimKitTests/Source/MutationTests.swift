import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Every animation fixture, damaged in a fixed, seeded set of ways —
/// truncated, bit-flipped, spliced with another fixture — then indexed,
/// decoded frame by frame and fed incrementally. Each run must end in
/// frames or an `AnimError` that names the input, within a time bound;
/// a crash stops the test run.
struct MutationTests {
    enum Mutation: CaseIterable {
        case truncatedHalf, truncatedByOne, truncatedRandom, flippedFew, flippedMany, splicedHalf, zeroedRun
    }

    /// The damaged bytes for `mutation` of fixture number `k`.
    static func mutate(_ bytes: [UInt8], _ mutation: Mutation, k: Int, other: [UInt8]) -> [UInt8] {
        var rng = RandomAccessTests.SplitMix(state: UInt64(k * 31 + Mutation.allCases.firstIndex(of: mutation)!))
        func at() -> Int { Int(rng.next() % UInt64(max(1, bytes.count))) }
        var out = bytes
        switch mutation {
        case .truncatedHalf: out = Array(bytes.prefix(bytes.count / 2))
        case .truncatedByOne: out = Array(bytes.dropLast())
        case .truncatedRandom: out = Array(bytes.prefix(at()))
        case .flippedFew:
            for _ in 0..<3 {
                let i = at()
                out[i] ^= UInt8(1 << (rng.next() % 8))
            }
        case .flippedMany:
            // Past the signature, so the format is still recognised.
            for _ in 0..<max(8, bytes.count / 64) {
                let i = max(16, at()) % bytes.count
                out[i] = UInt8(truncatingIfNeeded: rng.next())
            }
        case .splicedHalf: out = Array(bytes.prefix(bytes.count / 2) + other.suffix(other.count / 2))
        case .zeroedRun:
            let i = at()
            let n = min(bytes.count - i, 1 + Int(rng.next() % 256))
            for j in i..<(i + n) { out[j] = 0 }
        }
        return out
    }

    /// Index, every frame (at most 200), a downsampled pass and an
    /// incremental feed; returns the frames decoded. Throws when an error
    /// is not an `AnimError` naming `name`.
    static func exercise(_ bytes: [UInt8], name: String) throws -> Int {
        func check(_ error: Error) throws {
            guard let e = error as? AnimError, e.description.contains(name) else {
                throw CheckFailure("\(name): unclear error \(error)")
            }
        }
        var decoded = 0
        do {
            let source = try ImageSource(data: bytes, name: name)
            if let e = source.indexError { try check(e) }
            for i in 0..<min(source.frameCount, 200) {
                do {
                    _ = try source.frame(at: i)
                    decoded += 1
                } catch {
                    try check(error)
                    break
                }
            }
        } catch let failure as CheckFailure { throw failure } catch { try check(error) }
        var small = DecodingOptions()
        small.fitIn = PixelSize(width: 16, height: 16)
        do {
            let source = try ImageSource(data: bytes, name: name, options: small)
            for i in 0..<min(source.frameCount, 20) { _ = try source.frame(at: i) }
        } catch let failure as CheckFailure { throw failure } catch { try check(error) }
        let incremental = IncrementalImageSource(name: name)
        var at = 0
        while at < bytes.count {
            incremental.append(bytes[at..<min(bytes.count, at + 4099)])
            at += 4099
        }
        incremental.finish()
        for i in 0..<min(incremental.frameCount, 20) {
            do { _ = try incremental.frame(at: i) } catch { try check(error) }
        }
        if let e = incremental.error { try check(e) }
        return decoded
    }

    struct CheckFailure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    @Test(arguments: Mutation.allCases)
    func damagedFixturesEndInFramesOrErrors(_ mutation: Mutation) throws {
        let names = Fixtures.allAnimations
        #expect(names.count > 150)
        var frames = 0
        for (k, name) in names.enumerated() {
            let bytes = try Fixtures.bytes(name)
            let other = try Fixtures.bytes(names[(k + 1) % names.count])
            let damaged = Self.mutate(bytes, mutation, k: k, other: other)
            let label = "\(name)#\(mutation)"
            let start = ContinuousClock.now
            do { frames += try Self.exercise(damaged, name: label) } catch { Issue.record("\(error)") }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            #expect(seconds < 10, "\(label) took \(seconds) s")
        }
        // Damage leaves most frames decodable (not every run is an error).
        #expect(frames > 0)
    }
}
