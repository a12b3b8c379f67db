import CGIF

// The only file that imports giflib: the oracle that anim's LZW decoder
// is tested against. Everything else in `Formats/GIF` is plain Swift.

extension GIFDecoder {
    /// The bytes giflib reads, and how many it has read.
    fileprivate struct GIFLibStream {
        var bytes: [UInt8]
        var position = 0
    }

    fileprivate static let read: InputFunc = { gif, buffer, wanted in
        guard let gif, let buffer, let stream = gif.pointee.UserData?.assumingMemoryBound(to: GIFLibStream.self) else {
            return 0
        }
        let n = max(0, min(Int(wanted), stream.pointee.bytes.count - stream.pointee.position))
        stream.pointee.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + stream.pointee.position, count: n) }
        stream.pointee.position += n
        return Int32(n)
    }

    /// `image`'s colour indices in stored order as giflib decodes them, or
    /// nil when giflib gives up on it: the oracle that `GIFLZWDecoder` is
    /// tested against. giflib reads `bytes[0..<header]` (the file's header,
    /// screen descriptor and global table), then the image's bytes only.
    static func giflibIndices(_ bytes: UnsafeRawBufferPointer, header: Int, image: GIFImageRecord) -> [UInt8]? {
        guard image.rect.width > 0, image.rect.height > 0 else { return [] }
        let stream = UnsafeMutablePointer<GIFLibStream>.allocate(capacity: 1)
        stream.initialize(to: GIFLibStream(bytes: Array(bytes[0..<header]) + bytes[image.descriptorOffset..<image.dataEnd]))
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        var error: Int32 = 0
        guard let gif = DGifOpen(stream, Self.read, &error) else { return nil }
        defer {
            var e: Int32 = 0
            DGifCloseFile(gif, &e)
        }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE,
            DGifGetImageDesc(gif) == GIF_OK
        else { return nil }
        var out = [UInt8](repeating: 0, count: image.rect.width * image.rect.height)
        let ok = out.withUnsafeMutableBufferPointer { buf in
            for r in 0..<image.rect.height {
                if DGifGetLine(gif, buf.baseAddress! + r * image.rect.width, Int32(image.rect.width)) != GIF_OK { return false }
            }
            return true
        }
        return ok ? out : nil
    }
}
