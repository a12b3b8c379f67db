import AnimKit

extension Player {
    /// Takes in the frames of a stream that completed since the last look
    /// (the cache keeps its frames and decoding goes on from the canvas
    /// reached); once the stream has ended,
    /// lets the play end or loop.
    func refreshStream() throws {
        guard let stream, scheduler.isOpenEnded else { return }
        let ended = stream.isFinished  // read first: the source after it is the final one
        if let snapshot = stream.source, snapshot !== file, snapshot.frameCount >= file.frameCount {
            let known = file.frameCount
            file = snapshot
            frames.extend(with: try snapshot.reopened(options: frames.source.options))
            scheduler.append(durations: snapshot.frames[known...].map(\.duration))
        }
        if ended { scheduler.isOpenEnded = false }
    }
}
