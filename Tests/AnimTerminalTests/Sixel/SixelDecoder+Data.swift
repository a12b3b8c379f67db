/// The sixel data of one image: painted into the screen from the cursor's cell.
extension SixelDecoder {
    /// The level a terminal shows for a percent.
    static func level(percent p: Int) -> UInt32 { UInt32((p * 255 + 50) / 100) }

    mutating func sixel(_ data: [UInt8]) {
        var image = Image(row: row, column: column)
        // xterm takes the slot (dropping a graphic) before reading the data.
        let slot = takeSlot()
        var registers: [Int] = []  // the image's pixels: register, or -1
        var x = 0
        var y = 0
        var selected: Int? = nil
        var raster = false
        var painted = false
        var k = 0
        func number() -> Int? {
            var v: Int?
            while k < data.count, (0x30...0x39).contains(data[k]) {
                v = (v ?? 0) * 10 + Int(data[k] - 0x30)
                k += 1
            }
            return v
        }
        func numbers() -> [Int] {
            var out = [number() ?? 0]
            while k < data.count, data[k] == UInt8(ascii: ";") {
                k += 1
                out.append(number() ?? 0)
            }
            return out
        }
        while k < data.count {
            let c = data[k]
            switch c {
            case UInt8(ascii: "\""):
                k += 1
                let p = numbers()
                if painted || raster { errors.append("raster attributes not first") }
                guard p.count == 4, p[0] == 1, p[1] == 1 else {
                    errors.append("raster attributes \(p)")
                    return
                }
                image.width = p[2]
                image.height = p[3]
                raster = true
                registers = [Int](repeating: -1, count: p[2] * p[3])
            case UInt8(ascii: "#"):
                k += 1
                let p = numbers()
                if p.count == 5 {
                    // A definition, which does not select (xterm).
                    guard p[1] == 2, p[2...].allSatisfy({ (0...100).contains($0) }) else {
                        errors.append("colour \(p)")
                        return
                    }
                    image.definitions[p[0]] =
                        0xFF00_0000 | Self.level(percent: p[2]) << 16 | Self.level(percent: p[3]) << 8
                        | Self.level(percent: p[4])
                } else if p.count == 1 {
                    selected = p[0]
                } else {
                    errors.append("colour introducer \(p)")
                    return
                }
            case UInt8(ascii: "!"):
                k += 1
                guard let n = number(), k < data.count, (0x3F...0x7E).contains(data[k]) else {
                    errors.append("bad repeat")
                    return
                }
                paint(data[k], count: n, &x, y, selected, &registers, image)
                painted = true
                k += 1
            case UInt8(ascii: "$"):
                let following = k + 1 < data.count ? data[k + 1] : 0
                if following == UInt8(ascii: "$") || following == UInt8(ascii: "-") || following == 0 {
                    image.redundantReturns += 1
                }
                x = 0
                k += 1
            case UInt8(ascii: "-"):
                x = 0
                y += 6
                k += 1
            case 0x3F...0x7E:
                paint(c, count: 1, &x, y, selected, &registers, image)
                painted = true
                k += 1
            default:
                errors.append("byte \(c) in sixel data")
                return
            }
        }
        if !raster { errors.append("no raster attributes") }
        images.append(image)
        guard painted else { return }  // no sixel character: no graphic (the slot stays free)
        // Pixels take their register's colour as defined at the end.
        var keys = [UInt32](repeating: 0, count: registers.count)
        for (i, r) in registers.enumerated() where r >= 0 {
            guard let color = image.definitions[r] else {
                errors.append("register \(r) drawn but not defined in the image")
                break
            }
            keys[i] = color
        }
        slots[slot] = Graphic(
            id: nextGraphicID, row: image.row, column: image.column,
            width: image.width, height: image.height, keys: keys)
        nextGraphicID += 1
        repaint()
    }

    private mutating func paint(
        _ c: UInt8, count: Int, _ x: inout Int, _ y: Int, _ selected: Int?,
        _ registers: inout [Int], _ image: Image
    ) {
        let bits = c - 0x3F
        if bits != 0 {
            guard let selected else {
                errors.append("sixel drawn with no register selected (xterm: register 3)")
                x += count
                return
            }
            let originX = (image.column - 1) * cellWidth
            let originY = (image.row - 1) * cellHeight
            for dx in 0..<count {
                for bit in 0..<6 where bits & (1 << bit) != 0 {
                    let px = x + dx
                    let py = y + bit
                    if px >= image.width || py >= image.height {
                        errors.append("pixel \(px),\(py) outside the raster")
                        continue
                    }
                    guard originX + px < width, originY + py < rows * cellHeight else {
                        errors.append("pixel off the screen")
                        continue
                    }
                    registers[py * image.width + px] = selected
                }
            }
        }
        x += count
    }
}
