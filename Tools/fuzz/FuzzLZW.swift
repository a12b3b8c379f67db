// libFuzzer target: arbitrary bytes as a GIF image's LZW data, decoded by
// anim's decoder, giflib and a textbook decoder (FuzzChecks.lzw, in
// Tests/AnimKitTests/Fuzz): any difference traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLZW(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzChecks.lzw(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
