// libFuzzer target: ImageDestination driven by the input, the result
// decoded and checked (FuzzChecks.encode, in Tests/AnimKitTests/Fuzz).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEncode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzChecks.encode(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
