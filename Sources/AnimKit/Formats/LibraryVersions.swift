import CDeflate
import CGIF
import CLCMS
import CPNG
import CWebP

/// The versions of the C libraries AnimKit runs on, as they report
/// themselves at run time where they can (libpng, libwebp, Little CMS) and
/// as compiled against where they cannot (giflib, libdeflate): what
/// `anim --version` prints.
package enum LibraryVersions {
    package static var all: [(library: String, version: String)] {
        let png = Int(png_access_version_number())
        let webp = Int(WebPGetDecoderVersion())
        let lcms = Int(cmsGetEncodedCMMversion())
        return [
            ("giflib", "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)"),
            ("libpng", "\(png / 10000).\(png / 100 % 100).\(png % 100)"),
            ("libwebp", "\(webp >> 16).\(webp >> 8 & 0xFF).\(webp & 0xFF)"),
            ("libdeflate", LIBDEFLATE_VERSION_STRING),
            ("Little CMS", "\(lcms / 1000).\(lcms / 10 % 100)"),
        ]
    }
}
