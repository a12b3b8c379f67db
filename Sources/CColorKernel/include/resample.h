#ifndef ANIM_RESAMPLE_H
#define ANIM_RESAMPLE_H
#include <stddef.h>
#include <stdint.h>

/// One axis of a separable resampling: for output pixel i, `taps`
/// weights starting at source index start[i]: weights[i * taps + k] for
/// source pixel start[i] + k (zero past the pixels it covers).
typedef struct {
    const int32_t *start;
    const float *weights;
    int32_t taps;
    int32_t count;
} anim_resample_axis;

/// Resamples RGBA8 `src` (`src_width`×`src_height`) into `dst`
/// (`columns.count`×`rows.count`), separably, in premultiplied alpha
/// (colours weighted by alpha) and float: across first (each source row
/// once, kept in a ring of `rows.taps + 1` filtered rows, clipped and
/// rounded to whole levels as Pillow's intermediate image is), then down. `scratch` holds `anim_resample_scratch(...)` floats;
/// `rows.taps` is at most 1023. Alpha below half a level gives transparent
/// black; colours are clamped to 0…255.
size_t anim_resample_scratch(int32_t src_width, int32_t src_height, const anim_resample_axis *columns,
                             const anim_resample_axis *rows);

void anim_resample(const uint8_t *src, int32_t src_width, int32_t src_height, uint8_t *dst,
                   const anim_resample_axis *columns, const anim_resample_axis *rows, float *scratch);

#endif
