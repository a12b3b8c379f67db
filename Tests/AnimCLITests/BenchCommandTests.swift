import AnimTestSupport
import Foundation
import Testing

struct BenchCommandTests {
    @Test func jsonHasTheFigures() throws {
        let r = try CLI.run(["bench", Fixtures.path("extra/long.gif"), "--runs", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        #expect(j["frames"] as? Int == 120 && j["width"] as? Int == 64 && j["height"] as? Int == 48)
        #expect(j["runs"] as? Int == 2)
        let median = try #require(j["medianMs"] as? Double)
        let minimum = try #require(j["minMs"] as? Double)
        #expect(median > 0 && minimum > 0 && minimum <= median)
        #expect(abs((j["msPerFrame"] as? Double ?? 0) - median / 120) < 0.01)
        #expect((j["megapixelsPerSecond"] as? Double ?? 0) > 0)
    }
}
