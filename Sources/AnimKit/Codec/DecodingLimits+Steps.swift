extension DecodingLimits {
    /// Throws unless a canvas of `width`×`height` is within the limits.
    func checkCanvas(width: Int, height: Int, file: String) throws {
        if width <= 0 || height <= 0 {
            throw AnimError.malformed(
                file: file, frame: nil, offset: nil,
                reason: "canvas size \(width)x\(height) is empty")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxCanvasPixels {
            throw AnimError.limitExceeded(
                file: file, limit: "maxCanvasPixels",
                value: pixels.overflow ? Int.max : pixels.partialValue,
                maximum: maxCanvasPixels)
        }
    }

    /// Throws when a canvas of `width`×`height` is out of proportion to the
    /// `bytes` of the whole file (`maxPixelsPerByte`).
    func checkProportion(width: Int, height: Int, bytes: Int, file: String) throws {
        let pixels = width.multipliedReportingOverflow(by: height)
        let perByte = pixels.overflow ? Int.max : pixels.partialValue / max(bytes, 1)
        if perByte > maxPixelsPerByte {
            throw AnimError.limitExceeded(file: file, limit: "maxPixelsPerByte", value: perByte, maximum: maxPixelsPerByte)
        }
    }

    /// Throws when `count` steps exceed the frame limit.
    func checkFrameCount(_ count: Int, file: String) throws {
        if count > maxFrameCount {
            throw AnimError.limitExceeded(file: file, limit: "maxFrameCount", value: count, maximum: maxFrameCount)
        }
    }

    /// Throws when the steps together decode more bytes than allowed.
    func checkDecodedBytes(_ steps: [Step], file: String) throws {
        var total = 0
        for s in steps {
            total += max(s.rect.width, 0) * max(s.rect.height, 0) * 4
            if total > maxDecodedBytes {
                throw AnimError.limitExceeded(file: file, limit: "maxDecodedBytes", value: total, maximum: maxDecodedBytes)
            }
        }
    }
}
