#ifndef ANIM_PALETTE_H
#define ANIM_PALETTE_H
#include <stddef.h>
#include <stdint.h>

/// Palette indices to RGBA8 pixels: out[x] = palette[indices[x]] for x in
/// 0..<count, `palette` 256 RGBA entries as little-endian 32-bit words.
/// With `masked`, an entry whose alpha is below 128 (a GIF's transparent
/// index, stored as alpha 0) leaves out[x] as it is.
void anim_palette_expand(const uint8_t *indices, size_t count, const uint32_t *palette, uint32_t *out, int masked);

#endif
