import AnimKit
import AnimTestSupport

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A model of kitty's graphics state for tests: it reads the commands a
/// backend sends (chunked `a=T`, `a=f` with `c`, `r`, `x`, `y`, `X`, `a=a`
/// with `c` and `s`, `a=d`), decodes their PNG payloads, composes frames as
/// kitty does, and says which picture is on screen. A payload sent by
/// shared memory (`t=s`) is read from the object it names, which is then
/// unlinked, as kitty does. Anything it does not understand is an error.
struct KittyScreen {
    var frames: [RGBAImage] = []
    var current = 0
    var imageID: String?
    /// Where the cursor was when the image was placed (1-based).
    var placedAt: (row: Int, column: Int)?
    var row = 1, column = 1
    var stopped = false
    var errors: [String] = []
    /// Payloads decoded, by format key (`100` PNG, `24` RGB, `32` RGBA).
    var formats: [String: Int] = [:]
    /// Payloads read from shared-memory objects (`t=s`).
    var sharedMemoryReads = 0
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
        var data = pending.map { Base64.decode(String(decoding: $0.data, as: UTF8.self)) } ?? []
        pending = nil
        if keys["t"] == "s" {
            guard let read = Self.readShared(String(decoding: data, as: UTF8.self)) else {
                errors.append("no shared-memory object \(String(decoding: data, as: UTF8.self))")
                return
            }
            data = read
            sharedMemoryReads += 1
        } else if let t = keys["t"], t != "d" {
            errors.append("transmission t=\(t)")
        }
        switch keys["a"] ?? "t" {
        case "T" where !["100", "24", "32"].contains(keys["f"] ?? "32"),
            "f" where !["100", "24", "32"].contains(keys["f"] ?? "32"):
            errors.append("pixels in an unknown format f=\(keys["f"] ?? "")")
        case "T":
            guard let image = decode(data, keys) else { return }
            imageID = keys["i"]
            frames = [image]
            current = 1
            placedAt = (row, column)
            if keys["C"] != "1" { errors.append("a=T without C=1 moves the cursor") }
        case "f":
            guard keys["i"] == imageID, let patch = decode(data, keys) else {
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

    /// The payload as its keys say: a PNG (`f=100`), or raw RGB (`f=24`)
    /// or RGBA (`f=32`, kitty's default) of `s`×`v` pixels, which must be
    /// exactly that many bytes (kitty refuses a short one).
    private mutating func decode(_ data: [UInt8], _ keys: [String: String]) -> RGBAImage? {
        let format = keys["f"] ?? "32"
        formats[format, default: 0] += 1
        if format != "100" {
            let channels = format == "24" ? 3 : 4
            guard let w = keys["s"].flatMap(Int.init), let h = keys["v"].flatMap(Int.init), w > 0, h > 0,
                data.count == w * h * channels
            else {
                errors.append("raw f=\(format) payload of \(data.count) bytes for s=\(keys["s"] ?? "-") v=\(keys["v"] ?? "-")")
                return nil
            }
            var pixels = [UInt8](repeating: 255, count: w * h * 4)
            for i in 0..<(w * h) { for k in 0..<channels { pixels[i * 4 + k] = data[i * channels + k] } }
            return RGBAImage(width: w, height: h, trusting: pixels)
        }
        do { return try ImageSource(data: data).frame(at: 0) } catch {
            errors.append("payload is not a PNG: \(error)")
            return nil
        }
    }

    /// The bytes of the shared-memory object `name`, which is then
    /// unlinked; nil when there is none.
    static func readShared(_ name: String) -> [UInt8]? {
        let fd = shm_open(name, O_RDONLY, 0)
        guard fd >= 0 else { return nil }
        defer {
            close(fd)
            shm_unlink(name)
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return out
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
