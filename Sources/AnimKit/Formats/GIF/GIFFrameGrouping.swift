/// Turns a GIF's images into displayed frames.
///
/// GIF89a makes the delay the boundary between frames: an image with no
/// delay (0, or no Graphic Control Extension) is a drawing step of the next
/// frame, so a picture made of 16 tiles without delays is one frame
/// (gif-suite `images-combine`, `high-color`) and an image without delay
/// before a delayed one is drawn with it (`animation-multi-image`,
/// `dispose-restore-previous`). Images after the last delayed one form a
/// final frame.
///
/// Readers nevertheless play some files with no delay at all as one frame
/// per image (gif-suite cases with `force-animation = yes`):
/// - a file with a NETSCAPE2.0/ANIMEXTS1.0 loop extension
///   (`animation-no-delays`, `animation-zero-delays`);
/// - a file with no extension block at all (the GIF87a way of making a
///   slideshow) whose three or more images each cover the whole screen
///   (`gif87a-animation`). Two full images without extensions stay one
///   picture (`images-overlap`). Without a loop block such a file plays
///   once, as any GIF (see `GIFContainer`).
///
/// Not merging (`DecodingOptions.mergesZeroDelayImages` false), every image
/// is a frame.
enum GIFFrameGrouping {
    static func group(_ parsed: GIFParser.Result, merging: Bool) -> [Range<Int>] {
        let images = parsed.images
        if images.isEmpty { return [] }
        let anyDelay = images.contains { $0.delay > 0 }
        let full = images.allSatisfy {
            $0.rect.x == 0 && $0.rect.y == 0 && $0.rect.width >= parsed.width && $0.rect.height >= parsed.height
        }
        let slideshow = !anyDelay && images.count >= 3 && full && !parsed.hasExtensions
        let each = images.indices.map { $0..<($0 + 1) }
        if !merging { return each }
        if !anyDelay {
            if images.count > 1 && parsed.loopCount != nil || slideshow { return each }
            return [0..<images.count]
        }
        var frames: [Range<Int>] = []
        var start = 0
        for (i, image) in images.enumerated() where image.delay > 0 {
            frames.append(start..<(i + 1))
            start = i + 1
        }
        if start < images.count { frames.append(start..<images.count) }
        return frames
    }
}
