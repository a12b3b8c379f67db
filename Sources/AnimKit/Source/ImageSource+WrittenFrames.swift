/// A writer that starts over reads its output back through a source.
extension ImageSource: WrittenFrames {}
