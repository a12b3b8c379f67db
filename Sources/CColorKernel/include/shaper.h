#ifndef ANIM_SHAPER_H
#define ANIM_SHAPER_H
#include <stddef.h>
#include <stdint.h>

/// The tables of a matrix-shaper conversion (MatrixShaper.swift builds
/// them): per channel 8-bit value to linear light in 0...16383 (3 x 256),
/// the 3x3 matrix scaled by 2^14 (row-major), and linear light in
/// 0...16383 to 8-bit sRGB, padded with 3 bytes (16387 entries).
typedef struct {
    const int32_t *linear;
    const int32_t *matrix;
    const uint8_t *encode;
} anim_shaper;

/// Converts `count` RGBA8 pixels from `src` into `dst` (which may be
/// `src`); alpha is kept.
void anim_shaper_convert(const anim_shaper *s, const uint8_t *src, uint8_t *dst, size_t count);

/// Converts only the pixels of `src` that differ from `shadow`, and copies
/// them into `shadow`; the others are left as they are in `dst`.
void anim_shaper_convert_changed(const anim_shaper *s, const uint8_t *src, uint8_t *shadow, uint8_t *dst, size_t count);

#endif
