#ifndef ANIM_NEAREST_H
#define ANIM_NEAREST_H
#include <stdint.h>

/// The index of the colour nearest to (r, g, b) among `count` colours (at
/// least 1) given as three arrays of channel values 0…255, under the
/// quantiser's weighted distance 3·ΔR² + 4·ΔG² + 2·ΔB² (PaletteSearch):
/// the first of them at the smallest distance, which goes to *distance.
/// Every colour is looked at: no order or structure is needed, and eight
/// at a time with AVX2 it beats a sorted walk where the colours lie all
/// over the cube (noise, photographs under a 256-colour palette).
int32_t anim_palette_nearest(const int32_t *reds, const int32_t *greens, const int32_t *blues, int32_t count,
                             int32_t r, int32_t g, int32_t b, int32_t *distance);

#endif
