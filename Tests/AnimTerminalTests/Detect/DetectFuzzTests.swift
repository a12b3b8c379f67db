import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

/// 100,000 seeded inputs through the parser (`ReplyFuzzChecks.parse`: no
/// crash, chunking does not matter, output only input bytes, values
/// bounded, a valid reply between garbage still found): random bytes biased
/// to escape-sequence material, and mutated valid replies.
struct DetectFuzzTests {
    static let alphabet: [UInt8] =
        Array("\u{1B}\u{1B}\u{1B}[]_P\\?;:$+=>|rcStyGi0123456789OKq ".utf8) + [0x07, 0x18, 0x03, 0x9C, 0xFF]

    func randomInput(_ rng: inout FuzzRandom) -> [UInt8] {
        let count = Int(rng.next() % 200)
        return (0..<count).map { _ in
            rng.next() % 4 == 0
                ? UInt8(truncatingIfNeeded: rng.next()) : Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
        }
    }

    func mutated(_ rng: inout FuzzRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            let pool = rng.next() % 3 == 0 ? ReplySamples.malformed : ReplySamples.valid.map(\.bytes)
            bytes += pool[Int(rng.next() % UInt64(pool.count))].prefix(600)
            if rng.next() % 2 == 0 { bytes += ReplySamples.keys[Int(rng.next() % UInt64(ReplySamples.keys.count))] }
        }
        for _ in 0..<Int(rng.next() % 4) where !bytes.isEmpty {
            let at = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 4 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))], at: at)
            default: bytes.insert(contentsOf: bytes[at..<min(at + 8, bytes.count)], at: at)
            }
        }
        return bytes
    }

    @Test func hundredThousandInputs() {
        var rng = FuzzRandom(state: 2024)
        var found = 0
        for i in 0..<100_000 {
            let input = i % 2 == 0 ? randomInput(&rng) : mutated(&rng)
            ReplyFuzzChecks.parse(input)
            found += ReplyFuzzChecks.run(input, chunks: [input.count]).replies.count
        }
        // The mutations leave many replies intact: the parser found them.
        #expect(found > 50_000)
    }
}

extension DetectFuzzTests {
    static let fixtures = "/" + #filePath.split(separator: "/").dropLast(2).joined(separator: "/") + "/Fixtures/fuzz-replies"

    /// The fuzzer's seeds and past findings (`Fixtures/fuzz-replies`).
    @Test func replaysFixtures() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { !$0.hasSuffix(".md") }
        #expect(names.count >= 7)
        var replies = 0
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
            ReplyFuzzChecks.parse(bytes)
            replies += ReplyFuzzChecks.run(bytes, chunks: [bytes.count]).replies.count
        }
        #expect(replies >= 14)
    }
}
