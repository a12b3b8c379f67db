import AnimKit

/// Builds kitty graphics protocol commands: `ESC _ G keys ; payload ESC \`,
/// the payload base64 in chunks of at most 4096 bytes (`m=1` on all but the
/// last), each command wrapped for tmux's passthrough when asked.
///
/// The protocol wants the keys on the first chunk only, but kitty 0.26
/// takes an animation frame's keys (`x`, `y`, `c`, `X`) from its last, so
/// a chunked frame lost its offset: `repeatKeys` sends them on every chunk.
struct KittyCommand {
    let tmux: Bool

    /// One command with no payload.
    func control(_ keys: String) -> [UInt8] {
        wrap([Escape.esc, UInt8(ascii: "_"), UInt8(ascii: "G")] + Array(keys.utf8) + Escape.stringTerminator)
    }

    /// A command carrying `data`, base64-encoded and chunked, in one
    /// buffer (only a tmux-wrapped chunk is built apart).
    func transmit(_ keys: String, data: [UInt8], repeatKeys: Bool = false) -> [UInt8] {
        var encoded: [UInt8] = []
        data.withUnsafeBytes { Base64.encode($0, into: &encoded) }
        let opening: [UInt8] = [Escape.esc, UInt8(ascii: "_"), UInt8(ascii: "G")]
        let firstKeys = (more: Array((keys + ",m=1;").utf8), last: Array((keys + ",m=0;").utf8))
        // Later chunks carry `m`, and `q=2` when the first does (a preview
        // must never get a reply).
        let q = keys.contains("q=2") ? ",q=2" : ""
        let laterKeys =
            repeatKeys ? firstKeys : (more: Array("m=1\(q);".utf8), last: Array("m=0\(q);".utf8))
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + (encoded.count / 4096 + 1) * (firstKeys.more.count + 8))
        var chunk: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 4096, encoded.count)
            let more = end < encoded.count
            let keys = start == 0 ? firstKeys : laterKeys
            if tmux { chunk.removeAll(keepingCapacity: true) }
            func put(_ bytes: some Collection<UInt8>) { if tmux { chunk += bytes } else { out += bytes } }
            put(opening)
            put(more ? keys.more : keys.last)
            put(encoded[start..<end])
            put(Escape.stringTerminator)
            if tmux { out += Escape.tmuxPassthrough(chunk) }
            start = end
        } while start < encoded.count
        return out
    }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] { tmux ? Escape.tmuxPassthrough(bytes) : bytes }
}
