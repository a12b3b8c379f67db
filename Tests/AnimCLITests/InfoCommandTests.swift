import AnimTestSupport
import Foundation
import Testing

struct InfoCommandTests {
    func json(_ file: String, _ extra: [String] = []) throws -> [String: Any] {
        let r = try CLI.run(["info", "--json"] + extra + [Fixtures.path(file)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("}\n") && r.stdout.filter { $0 == "\n" }.count == 1, "exactly one JSON line")
        return try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
    }

    @Test func gifJSON() throws {
        let j = try json("gif-suite/animation-speed.gif")
        #expect(j["format"] as? String == "gif")
        #expect(j["width"] as? Int == 2 && j["height"] as? Int == 2)
        #expect(j["frameCount"] as? Int == 4)
        #expect(j["loopCount"] as? Int == 0 && j["plays"] as? Int == 0)
        let frames = try #require(j["frames"] as? [[String: Any]])
        #expect(frames.map { $0["delayMs"] as? Double } == [250, 500, 1000, 2000])
        #expect(frames.map { $0["durationMs"] as? Double } == [250, 500, 1000, 2000])
        #expect(
            Set(frames[0].keys) == [
                "index", "x", "y", "width", "height", "delayMs", "durationMs",
                "dispose", "blend", "keyframe", "complete",
            ])
        #expect(frames.allSatisfy { $0["complete"] as? Bool == true })
        let metadata = try #require(j["metadata"] as? [String: Any])
        #expect(metadata["iccProfileBytes"] is NSNull && (metadata["text"] as? [Any])?.isEmpty == true)
        #expect(frames[3]["index"] as? Int == 3 && frames[0]["keyframe"] as? Bool == true)
        #expect(frames[0]["dispose"] as? String == "none" && frames[0]["blend"] as? String == "over")
    }

    @Test func metadataIsListed() throws {
        let text = try CLI.run(["info", Fixtures.path("metadata/flower2.webp")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ICC profile: 3144 bytes") && text.stdout.contains("EXIF: 6573 bytes"))
        #expect(text.stdout.contains("XMP: 3467 bytes"))
        let j = try json("metadata/flower2.webp")
        let metadata = try #require(j["metadata"] as? [String: Any])
        #expect(metadata["iccProfileBytes"] as? Int == 3144 && metadata["exifBytes"] as? Int == 6573)
        #expect((metadata["xmp"] as? String)?.contains("xmpmeta") == true)
        let gif = try CLI.run(["info", Fixtures.path("metadata/multiple_comments.gif")])
        #expect(gif.stdout.contains("comment: Test comment 1"))
    }

    @Test func noLoopBlockIsNullAndPlaysOnce() throws {
        // Four tiles without delay: four frames as browsers show them, one
        // picture as GIF89a reads it.
        let j = try json("gif-suite/images-combine.gif")
        #expect(j["loopCount"] is NSNull)
        #expect(j["plays"] as? Int == 1 && j["frameCount"] as? Int == 4)
        let merged = try json("gif-suite/images-combine.gif", ["--merge-zero-delay"])
        #expect(merged["plays"] as? Int == 1 && merged["frameCount"] as? Int == 1)
    }

    @Test func zeroDelaysBecome100msUnlessRaw() throws {
        let j = try json("gif-suite/animation-zero-delays.gif")
        let frames = try #require(j["frames"] as? [[String: Any]])
        #expect(frames.map { $0["delayMs"] as? Double } == [0, 0, 0, 0])
        #expect(frames.map { $0["durationMs"] as? Double } == [100, 100, 100, 100])
        let raw = try json("gif-suite/animation-zero-delays.gif", ["--raw-delays"])
        #expect((raw["frames"] as? [[String: Any]])?.map { $0["durationMs"] as? Double } == [0, 0, 0, 0])
    }

    @Test func apngAndWebPJSON() throws {
        let a = try json("apng-suite/032.png")
        #expect(a["format"] as? String == "apng" && a["loopCount"] as? Int == 2 && a["plays"] as? Int == 2)
        let s = try json("apng-suite/000.png")
        #expect(s["format"] as? String == "png" && s["loopCount"] is NSNull && s["plays"] as? Int == 1)
        let w = try json("webp/loop-3.webp")
        #expect(w["format"] as? String == "webp" && w["loopCount"] as? Int == 3 && w["plays"] as? Int == 3)
        let f = try #require((try json("webp/blend-noblend-subrect.webp"))["frames"] as? [[String: Any]])
        #expect(f.contains { $0["blend"] as? String == "source" } && f.contains { $0["blend"] as? String == "over" })
    }

    @Test func readableSummary() throws {
        let r = try CLI.run(["info", Fixtures.path("gif-suite/animation.gif")])
        #expect(r.status == 0)
        #expect(r.stdout.contains("GIF, 2x2, 4 frames, loops forever"))
        #expect(r.stdout.split(separator: "\n").count == 6)
    }

    /// Files the browsers play though the suites reject them or say
    /// otherwise (`APNGBrowserRuleTests`, `GIFConformanceTests`): exit 0,
    /// a warning for the APNGs, and the plays Chromium 156 shows.
    @Test func filesPlayedAsTheBrowserPlaysThem() throws {
        for file in ["040.png", "044.png", "047.png"] {
            let r = try CLI.run(["info", "--json", Fixtures.path("apng-suite/" + file)])
            #expect(r.status == 0 && r.stderr.contains("warning:"), "\(file): \(r.stderr)")
            let j = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
            #expect(j["frameCount"] as? Int == 1 && j["plays"] as? Int == 0, "\(file)")
        }
        let g = try json("gif-suite/gif87a-animation.gif")
        #expect(g["frameCount"] as? Int == 4 && g["loopCount"] is NSNull && g["plays"] as? Int == 1)
    }

    @Test func damagedFilePrintsWhatItCanThenFails() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("apng-suite/048.png")))  // num_frames too high
        let path = TempDirectory.make().appendingPathComponent("bad.png")
        try bytes.write(to: path)
        let r = try CLI.run(["info", "--json", path.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("anim: \(path.path)") && r.stderr.contains("acTL declares"))
        #expect((try? JSONSerialization.jsonObject(with: r.stdoutData)) != nil)
    }
}
