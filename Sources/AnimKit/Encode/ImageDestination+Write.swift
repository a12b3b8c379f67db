extension ImageDestination {
    /// The one frame loop of every transcode (`Transcoder`, so `anim
    /// convert`, `optimize`, `encode` and `--max-bytes`): adds frames 0,
    /// 1, … from `frame` until `count` or until it gives nil, calls `added`
    /// with the number added after each, then finishes. On any error the
    /// output is abandoned (nothing left behind) and the error thrown.
    /// Returns the number of frames added.
    @discardableResult
    public func write(
        count: Int, added: (Int) -> Void = { _ in }, frame: (Int) throws -> (image: RGBAImage, duration: Duration?)?
    ) throws -> Int {
        var n = 0
        do {
            while n < count, let (image, duration) = try frame(n) {
                try add(image, duration: duration)
                n += 1
                added(n)
            }
            try finish()
        } catch {
            cancel()
            throw error
        }
        return n
    }
}
