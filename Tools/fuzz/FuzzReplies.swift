// libFuzzer target: arbitrary bytes into TerminalReplyParser, in chunks the
// input itself chooses, and with a valid reply embedded
// (ReplyFuzzChecks.parse, in Tests/AnimTerminalTests/Fuzz).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ReplyFuzzChecks.parse(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
