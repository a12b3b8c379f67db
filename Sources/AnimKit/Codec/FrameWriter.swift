/// One format's encoder behind `ImageDestination`: receives whole-canvas
/// frames in order (identical ones already merged) and writes them to the
/// sink as it goes, keeping at most a few canvases in memory.
protocol FrameWriter: AnyObject {
    /// Writes `frame` (a full canvas, the size given at creation), shown for `duration`.
    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws
    /// Writes what remains (trailer, counts) once every frame is added.
    func finish() throws
}
