import AnimKit

/// Builds kitty graphics protocol commands: `ESC _ G keys ; payload ESC \`,
/// the payload base64 in chunks of at most 4096 bytes (`m=1` on all but the
/// last), each command wrapped for tmux's passthrough when asked.
///
/// The protocol asks for the keys on the first chunk only; kitty 0.26
/// (Debian 12) takes an animation frame's keys (`x`, `y`, `c`, `X`) from
/// its last chunk, so a chunked frame lost its offset and was drawn as the
/// whole frame, stretched (seen under Xvfb). `repeatKeys` sends them on
/// every chunk, which kitty also accepts.
struct KittyCommand {
    let tmux: Bool

    /// One command with no payload.
    func control(_ keys: String) -> [UInt8] {
        wrap([Escape.esc, UInt8(ascii: "_"), UInt8(ascii: "G")] + Array(keys.utf8) + Escape.stringTerminator)
    }

    /// A command carrying `data`, base64-encoded and chunked.
    func transmit(_ keys: String, data: [UInt8], repeatKeys: Bool = false) -> [UInt8] {
        var encoded: [UInt8] = []
        data.withUnsafeBytes { Base64.encode($0, into: &encoded) }
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / 4096 * 16 + keys.utf8.count + 16)
        var start = 0
        repeat {
            let end = min(start + 4096, encoded.count)
            let more = end < encoded.count
            var chunk: [UInt8] = [Escape.esc, UInt8(ascii: "_"), UInt8(ascii: "G")]
            chunk += Array((start == 0 || repeatKeys ? keys + ",m=\(more ? 1 : 0)" : "m=\(more ? 1 : 0)").utf8)
            chunk.append(UInt8(ascii: ";"))
            chunk += encoded[start..<end]
            chunk += Escape.stringTerminator
            out += wrap(chunk)
            start = end
        } while start < encoded.count
        return out
    }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] { tmux ? Escape.tmuxPassthrough(bytes) : bytes }
}
