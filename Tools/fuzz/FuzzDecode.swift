// libFuzzer target: arbitrary bytes into ImageSource and
// IncrementalImageSource (FuzzChecks.decode, in Tests/AnimKitTests/Fuzz).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzChecks.decode(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
