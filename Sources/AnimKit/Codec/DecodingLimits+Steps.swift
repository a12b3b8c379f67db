extension DecodingLimits {
    /// Throws unless a canvas of `width`×`height` is within the limits.
    func checkCanvas(width: Int, height: Int, file: String) throws {
        if width <= 0 || height <= 0 {
            throw AnimError(file: file, CommonProblem.emptyCanvas(width: width, height: height))
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxCanvasPixels {
            throw AnimError(
                file: file,
                LimitExceeded(.canvasPixels, value: pixels.overflow ? Int.max : pixels.partialValue, maximum: maxCanvasPixels))
        }
    }

    /// Throws when a canvas of `width`×`height` is out of proportion to the
    /// `bytes` of the whole file (`maxPixelsPerByte`).
    func checkProportion(width: Int, height: Int, bytes: Int, file: String) throws {
        let pixels = width.multipliedReportingOverflow(by: height)
        let perByte = pixels.overflow ? Int.max : pixels.partialValue / max(bytes, 1)
        if perByte > maxPixelsPerByte {
            throw AnimError(file: file, LimitExceeded(.pixelsPerByte, value: perByte, maximum: maxPixelsPerByte))
        }
    }

    /// Throws when `count` steps exceed the frame limit.
    func checkFrameCount(_ count: Int, file: String) throws {
        if count > maxFrameCount {
            throw AnimError(file: file, LimitExceeded(.frameCount, value: count, maximum: maxFrameCount))
        }
    }

    /// Throws when the steps together decode more bytes than allowed.
    func checkDecodedBytes(_ steps: [Step], file: String) throws {
        var total = 0
        for s in steps {
            total += max(s.rect.width, 0) * max(s.rect.height, 0) * 4
            if total > maxDecodedBytes {
                throw AnimError(file: file, LimitExceeded(.decodedBytes, value: total, maximum: maxDecodedBytes))
            }
        }
    }
}
