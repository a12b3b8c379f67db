// The separable resampler's pixel loops (see resample.h): across first,
// each source row once into a ring of filtered rows, then down; four
// channels of a pixel in one SSE register, which every x86-64 processor
// has. The order and the rounding between the passes are Pillow's, whose
// LANCZOS the tests compare with.
#include "resample.h"

#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define ANIM_SSE 1
#endif

/// One source row premultiplied, rounded to whole levels as Pillow's RGBa
/// is (r·a/255, g·a/255, b·a/255, a), as floats. (c·a/255 is never exactly
/// half way between two levels, so rounding to even is rounding half up.)
static void premultiply(const uint8_t *row, int32_t width, float *out) {
#ifdef ANIM_SSE
    const __m128i zero = _mm_setzero_si128();
    for (int32_t x = 0; x < width; x++) {
        uint32_t v;
        memcpy(&v, row + 4 * x, 4);
        __m128 f = _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)v), zero), zero));
        float a = (float)(v >> 24), k = a * (1.0f / 255.0f);
        __m128 scaled = _mm_cvtepi32_ps(_mm_cvtps_epi32(_mm_mul_ps(f, _mm_set_ps(1.0f, k, k, k))));
        _mm_storeu_ps(out + 4 * (size_t)x, scaled);
    }
#else
    for (int32_t x = 0; x < width; x++) {
        float a = row[4 * x + 3], k = a * (1.0f / 255.0f);
        out[4 * x] = rintf(row[4 * x] * k);
        out[4 * x + 1] = rintf(row[4 * x + 1] * k);
        out[4 * x + 2] = rintf(row[4 * x + 2] * k);
        out[4 * x + 3] = a;
    }
#endif
}

/// Across one premultiplied row, into `out`, each value clipped to 0…255
/// and rounded (Pillow's 8-bit intermediate image: the ringing at hard
/// edges does not carry into the second pass).
static void across(const float *row, const anim_resample_axis *c, float *out) {
    for (int32_t i = 0; i < c->count; i++) {
        const float *w = c->weights + (size_t)i * c->taps;
        const float *p = row + 4 * (size_t)c->start[i];
#ifdef ANIM_SSE
        __m128 sum = _mm_setzero_ps();
        for (int32_t k = 0; k < c->taps; k++) sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(w[k]), _mm_loadu_ps(p + 4 * k)));
        sum = _mm_min_ps(_mm_max_ps(sum, _mm_setzero_ps()), _mm_set1_ps(255.0f));
        _mm_storeu_ps(out + 4 * (size_t)i, _mm_cvtepi32_ps(_mm_cvtps_epi32(sum)));
#else
        for (int ch = 0; ch < 4; ch++) {
            float v = 0;
            for (int32_t k = 0; k < c->taps; k++) v += w[k] * p[4 * k + ch];
            out[4 * (size_t)i + ch] = rintf(v < 0 ? 0 : v > 255 ? 255 : v);
        }
#endif
    }
}

static inline uint8_t clamp8(float v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5f); }

/// A premultiplied pixel back to RGBA8.
static inline void store(const float *v, uint8_t *o) {
    float a = v[3];
    if (a < 0.5f) {
        memset(o, 0, 4);
        return;
    }
    float k = 255.0f / clamp8(a);
    o[0] = clamp8(clamp8(v[0]) * k);
    o[1] = clamp8(clamp8(v[1]) * k);
    o[2] = clamp8(clamp8(v[2]) * k);
    o[3] = clamp8(a);
}

size_t anim_resample_scratch(int32_t src_width, int32_t src_height, const anim_resample_axis *columns,
                             const anim_resample_axis *rows) {
    (void)src_height;
    size_t line = (size_t)src_width + (size_t)columns->taps + 1;
    return ((size_t)(rows->taps + 1) * (size_t)columns->count + line + (size_t)columns->count) * 4;
}

void anim_resample(const uint8_t *src, int32_t src_width, int32_t src_height, uint8_t *dst,
                   const anim_resample_axis *columns, const anim_resample_axis *rows, float *scratch) {
    size_t out4 = (size_t)columns->count * 4;
    int32_t ring = rows->taps + 1;
    float *filtered = scratch;                       // ring × columns->count pixels
    float *line = filtered + (size_t)ring * out4;    // src_width + taps + 1 pixels (padded with 0)
    float *acc = line + ((size_t)src_width + (size_t)columns->taps + 1) * 4;  // columns->count pixels
    int32_t ringRow[1024];  // which source row each slot holds (taps ≤ 1023: the caller's limit)
    for (int32_t i = 0; i < ring && i < 1024; i++) ringRow[i] = -1;
    memset(line + 4 * (size_t)src_width, 0, ((size_t)columns->taps + 1) * 4 * sizeof(float));
    for (int32_t j = 0; j < rows->count; j++) {
        const float *w = rows->weights + (size_t)j * rows->taps;
        int32_t first = rows->start[j];
        memset(acc, 0, out4 * sizeof(float));
        for (int32_t k = 0; k < rows->taps && first + k < src_height; k++) {
            float wk = w[k];
            if (wk == 0) continue;
            int32_t sy = first + k, slot = sy % ring;
            float *p = filtered + (size_t)slot * out4;
            if (ringRow[slot] != sy) {
                premultiply(src + (size_t)sy * src_width * 4, src_width, line);
                across(line, columns, p);
                ringRow[slot] = sy;
            }
#ifdef ANIM_SSE
            __m128 vw = _mm_set1_ps(wk);
            for (size_t x = 0; x < out4; x += 4)
                _mm_storeu_ps(acc + x, _mm_add_ps(_mm_loadu_ps(acc + x), _mm_mul_ps(vw, _mm_loadu_ps(p + x))));
#else
            for (size_t x = 0; x < out4; x++) acc[x] += wk * p[x];
#endif
        }
        uint8_t *o = dst + (size_t)j * out4;
        for (int32_t i = 0; i < columns->count; i++) store(acc + 4 * (size_t)i, o + 4 * (size_t)i);
    }
}
