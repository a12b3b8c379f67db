import AnimKit
import AnimTestSupport

@testable import AnimTerminal

/// A model of kitty's graphics state for tests: it reads the commands a
/// backend sends (chunked `a=T`, `a=f` with `c`, `r`, `x`, `y`, `X`, `a=a`
/// with `c` and `s`, `a=d`), decodes their PNG payloads, composes frames as
/// kitty does, and says which picture is on screen. Anything it does not
/// understand is an error.
struct KittyScreen {
    var frames: [RGBAImage] = []
    var current = 0
    var imageID: String?
    /// Where the cursor was when the image was placed (1-based).
    var placedAt: (row: Int, column: Int)?
    var row = 1, column = 1
    var stopped = false
    var errors: [String] = []
    private var pending: (keys: [String: String], data: [UInt8])?

    /// The picture on screen, if any.
    var shown: RGBAImage? { current >= 1 && current <= frames.count ? frames[current - 1] : nil }

    mutating func feed(_ bytes: [UInt8]) {
        for (offset, piece) in EscapeScanner(bytes) {
            switch piece {
            case .csi(let params, UInt8(ascii: "H")): (row, column) = EscapeScanner.cursor(params)
            case .csi("?2026", UInt8(ascii: "h")), .csi("?2026", UInt8(ascii: "l")): break
            case .string(UInt8(ascii: "_"), let body) where body.first == UInt8(ascii: "G"):
                let semi = body.firstIndex(of: UInt8(ascii: ";")) ?? body.count
                var keys: [String: String] = [:]
                for kv in String(decoding: body[1..<semi], as: UTF8.self).split(separator: ",") {
                    let parts = kv.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
                }
                command(keys, semi < body.count ? Array(body[(semi + 1)...]) : [])
            default:
                errors.append("unexpected \(piece) at \(offset)")
                return
            }
        }
    }

    private mutating func command(_ keys: [String: String], _ payload: [UInt8]) {
        var keys = keys
        if let p = pending {
            // A continuation: the first chunk's keys hold.
            pending = (p.keys, p.data + payload)
            keys = p.keys.merging(keys) { _, new in new }
        } else if keys["m"] == "1" || !payload.isEmpty {
            pending = (keys, payload)
        }
        if keys["m"] == "1" { return }
        let data = pending.map { Base64.decode(String(decoding: $0.data, as: UTF8.self)) } ?? []
        pending = nil
        switch keys["a"] ?? "t" {
        case "T" where keys["f"] != "100", "f" where keys["f"] != "100":
            errors.append("pixels not marked as PNG (f=100): kitty would read raw RGBA")
        case "T":
            guard let image = decode(data) else { return }
            imageID = keys["i"]
            frames = [image]
            current = 1
            placedAt = (row, column)
            if keys["C"] != "1" { errors.append("a=T without C=1 moves the cursor") }
        case "f":
            guard keys["i"] == imageID, let patch = decode(data) else {
                errors.append("frame for an unknown image")
                return
            }
            let x = Int(keys["x"] ?? "0") ?? 0
            let y = Int(keys["y"] ?? "0") ?? 0
            guard keys["X"] == "1" else {
                errors.append("frame without X=1 (blending)")
                return
            }
            if let r = keys["r"].flatMap(Int.init) {
                guard r >= 1 && r <= frames.count else {
                    errors.append("r=\(r) out of range")
                    return
                }
                frames[r - 1] = paste(patch, on: frames[r - 1], x: x, y: y)
            } else {
                let c = keys["c"].flatMap(Int.init) ?? 0
                guard c >= 1 && c <= frames.count else {
                    errors.append("c=\(c) out of range")
                    return
                }
                frames.append(paste(patch, on: frames[c - 1], x: x, y: y))
            }
        case "a":
            if keys["s"] == "1" { stopped = true }
            if let c = keys["c"].flatMap(Int.init) {
                guard c >= 1 && c <= frames.count else {
                    errors.append("show c=\(c) of \(frames.count)")
                    return
                }
                current = c
            }
        case "d":
            if keys["i"] == imageID {
                frames = []
                current = 0
                imageID = nil
            }
        default:
            errors.append("unknown action \(keys["a"] ?? "")")
        }
    }

    private mutating func decode(_ png: [UInt8]) -> RGBAImage? {
        do { return try ImageSource(data: png).frame(at: 0) } catch {
            errors.append("payload is not a PNG: \(error)")
            return nil
        }
    }

    private func paste(_ patch: RGBAImage, on base: RGBAImage, x: Int, y: Int) -> RGBAImage {
        var out = base
        for py in 0..<patch.height where y + py < base.height {
            for px in 0..<patch.width where x + px < base.width {
                for k in 0..<4 {
                    out.pixels[((y + py) * base.width + x + px) * 4 + k] = patch.pixels[(py * patch.width + px) * 4 + k]
                }
            }
        }
        return out
    }
}
