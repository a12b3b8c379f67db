import Foundation

extension Fixtures {
    /// The demo GIF with `padding` bytes of an application extension after
    /// its global table: past `ByteStore.mapThreshold` (4 MiB) it is mapped,
    /// not read, and every frame lies after the padding (the tests of a file
    /// truncated while it is read).
    public static func paddedDemoGIF(padding: Int = 4_500_000) throws -> [UInt8] {
        let demo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.demo)))
        let table = demo[10] & 0x80 != 0 ? 3 << (Int(demo[10] & 7) + 1) : 0
        var block: [UInt8] = [0x21, 0xFF, 11] + Array("ANIMPADDING".utf8)
        for _ in 0..<(padding / 255) { block += [255] + [UInt8](repeating: 0x55, count: 255) }
        block.append(0)
        return Array(demo[..<(13 + table)]) + block + Array(demo[(13 + table)...])
    }
}
