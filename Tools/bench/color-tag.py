#!/usr/bin/env python3
"""Copies an animation with an ICC profile embedded, for color-cost.sh.

    color-tag.py PROFILE.icc IN OUT

PNG/APNG: an iCCP chunk after IHDR; GIF: an ICCRGBG1012 application
extension after the global colour table; WebP: through `webpmux -set icc`.
"""
import struct
import subprocess
import sys
import zlib


def png(profile, data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    ihdr_end = 8 + 12 + struct.unpack(">I", data[8:12])[0]
    body = b"Display P3\0\0" + zlib.compress(profile)
    chunk = struct.pack(">I", len(body)) + b"iCCP" + body
    chunk += struct.pack(">I", zlib.crc32(b"iCCP" + body) & 0xFFFFFFFF)
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def gif(profile, data):
    flags = data[10]
    end = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    ext = b"\x21\xff\x0bICCRGBG1012"
    for i in range(0, len(profile), 255):
        block = profile[i:i + 255]
        ext += bytes([len(block)]) + block
    return data[:end] + ext + b"\0" + data[end:]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    profile_path, src, out = sys.argv[1:]
    profile = open(profile_path, "rb").read()
    if src.endswith(".webp"):
        subprocess.run(["webpmux", "-set", "icc", profile_path, src, "-o", out], check=True, capture_output=True)
        return
    data = open(src, "rb").read()
    open(out, "wb").write(png(profile, data) if src.endswith(".png") else gif(profile, data))


if __name__ == "__main__":
    main()
