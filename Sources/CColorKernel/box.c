// The box filter's inner loop (see box.h): the alpha-weighted sums of a
// row's pixels per output column, in exact integers, two pixels at a time
// in 16-bit lanes (α·c ≤ 255·255 fits 16 bits unsigned) with SSE2, which
// every x86-64 processor has.
#include "box.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

void anim_box_add_row(const uint8_t *row, const int32_t *start, const int32_t *count, int32_t columns, int64_t *sums) {
    const __m128i zero = _mm_setzero_si128();
    // Keeps the colour lanes of the broadcast alpha; the alpha lanes become 1.
    const __m128i keep = _mm_set_epi16(0, -1, -1, -1, 0, -1, -1, -1);
    const __m128i one = _mm_set_epi16(1, 0, 0, 0, 1, 0, 0, 0);
    for (int32_t x = 0; x < columns; x++) {
        const uint8_t *p = row + 4 * (size_t)start[x];
        int32_t n = count[x];
        __m128i acc = zero;
        int32_t k = 0;
        for (; k + 2 <= n; k += 2, p += 8) {
            __m128i v = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), zero);
            __m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
            __m128i m = _mm_or_si128(_mm_and_si128(a, keep), one);
            __m128i prod = _mm_mullo_epi16(v, m);
            acc = _mm_add_epi32(acc, _mm_add_epi32(_mm_unpacklo_epi16(prod, zero), _mm_unpackhi_epi16(prod, zero)));
        }
        if (k < n) {
            uint32_t w;
            memcpy(&w, p, 4);
            __m128i v = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), zero);
            __m128i a = _mm_shufflelo_epi16(v, 0xFF);
            __m128i m = _mm_or_si128(_mm_and_si128(a, keep), one);
            acc = _mm_add_epi32(acc, _mm_unpacklo_epi16(_mm_mullo_epi16(v, m), zero));
        }
        uint32_t s[4];
        _mm_storeu_si128((__m128i *)s, acc);
        int64_t *q = sums + 4 * (size_t)x;
        q[0] += s[0];
        q[1] += s[1];
        q[2] += s[2];
        q[3] += s[3];
    }
}

#else

void anim_box_add_row(const uint8_t *row, const int32_t *start, const int32_t *count, int32_t columns, int64_t *sums) {
    for (int32_t x = 0; x < columns; x++) {
        const uint8_t *p = row + 4 * (size_t)start[x];
        uint32_t r = 0, g = 0, b = 0, a = 0;
        for (int32_t k = 0; k < count[x]; k++, p += 4) {
            uint32_t alpha = p[3];
            r += alpha * p[0];
            g += alpha * p[1];
            b += alpha * p[2];
            a += alpha;
        }
        int64_t *q = sums + 4 * (size_t)x;
        q[0] += r;
        q[1] += g;
        q[2] += b;
        q[3] += a;
    }
}

#endif

void anim_box_write_row(const int64_t *sums, const float *column_weight, float row_weight, int32_t columns,
                        uint8_t *out) {
    for (int32_t x = 0; x < columns; x++, sums += 4, out += 4) {
        float alpha = (float)sums[3] * (column_weight[x] * row_weight);
        if (!(alpha >= 0.5f)) {
            memset(out, 0, 4);
            continue;
        }
        // Each quotient is within 0…255, so + 0.5 truncates in range.
        float inverse = 1.0f / (float)sums[3];
        out[0] = (uint8_t)((float)sums[0] * inverse + 0.5f);
        out[1] = (uint8_t)((float)sums[1] * inverse + 0.5f);
        out[2] = (uint8_t)((float)sums[2] * inverse + 0.5f);
        float a = alpha + 0.5f;
        out[3] = (uint8_t)(a < 255.0f ? a : 255.0f);
    }
}
