import AnimKit

/// What the terminal itself said to the probe's query round, as it said
/// it (what was decided from it is `TerminalCapabilities`' verdict).
public struct TerminalAnswers: Equatable, Sendable {
    /// Whether the terminal answered the query round (DA1 came in time).
    public var answered = false
    /// How long the query round took (to DA1 or the timeout); nil: not sent.
    public var duration: Duration?
    /// How many replies the round brought back.
    public var replyCount = 0
    /// What the terminal said it is (XTVERSION: `kitty(0.35.2)`), if it did.
    public var version: String?
    /// The row the cursor was on before the player took the screen (the
    /// shell's output ends there), when the terminal said (DECXCPR).
    public var cursorRow: Int?
    /// Sixel colour registers (XTSMGRAPHICS), nil when not reported.
    public var sixelRegisters: Int?
    /// Largest sixel image in pixels (XTSMGRAPHICS), nil when not reported.
    public var sixelMaxSize: PixelSize?
    /// Whether the terminal read kitty graphics from a shared-memory
    /// object of this machine (`Escape.queryKittySharedMemory`).
    public var kittySharedMemory = false
    /// Bytes read during the round that were not replies (keys typed
    /// meanwhile, at most `TerminalProbe.maxPendingInput`): the first keys.
    public var pendingInput: [UInt8] = []
}
