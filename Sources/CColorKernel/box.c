// The box filter's inner loop (see box.h): the alpha-weighted sums of a
// row's pixels per output column, in exact integers, two pixels at a time
// in 16-bit lanes (α·c ≤ 255·255 fits 16 bits unsigned) with SSE2, which
// every x86-64 processor has.
#include "box.h"

#include <string.h>

// One output pixel from its sums, each converted to float (rounded to
// nearest above 2^24, whatever integer type held it, so every path gives
// the same pixel). Each quotient is within 0…255, so + 0.5 truncates in
// range.
static inline void write_pixel(float r, float g, float b, float total, float weight, uint8_t *out) {
    float alpha = total * weight;
    if (!(alpha >= 0.5f)) {
        memset(out, 0, 4);
        return;
    }
    float inverse = 1.0f / total;
    out[0] = (uint8_t)(r * inverse + 0.5f);
    out[1] = (uint8_t)(g * inverse + 0.5f);
    out[2] = (uint8_t)(b * inverse + 0.5f);
    float a = alpha + 0.5f;
    out[3] = (uint8_t)(a < 255.0f ? a : 255.0f);
}

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
    for (int32_t x = 0; x < columns; x++, sums += 4, out += 4)
        write_pixel((float)sums[0], (float)sums[1], (float)sums[2], (float)sums[3], column_weight[x] * row_weight, out);
}

// ---- Rows first: the source rows of an output row summed per source
// pixel (vertically, eight lanes at a time), then each output column's
// run of those sums added and written. Per output pixel this is one
// premultiplication per source pixel and one add per source column,
// where summing a row's pixels per output column costs a loop per column
// and source row (a large share of kitty mode's CPU on a clip reduced
// 2:1: Tools/bench/graphics/run.py --modes kitty).

#include "avx2_dispatch.h"

static void accumulate_scalar(const uint8_t *row, int32_t width, uint32_t *acc) {
    for (int32_t x = 0; x < width; x++, row += 4, acc += 4) {
        uint32_t alpha = row[3];
        acc[0] += alpha * row[0];
        acc[1] += alpha * row[1];
        acc[2] += alpha * row[2];
        acc[3] += alpha;
    }
}

#ifdef ANIM_HAVE_AVX2_PATH
__attribute__((target("avx2"))) static void accumulate_avx2(const uint8_t *row, int32_t width, uint32_t *acc) {
    // Per pixel the alpha byte, spread over its four 16-bit lanes; the
    // alpha lane itself is multiplied by 1.
    const __m256i spread = _mm256_setr_epi8(6, -1, 6, -1, 6, -1, -1, -1, 14, -1, 14, -1, 14, -1, -1, -1,  //
                                            6, -1, 6, -1, 6, -1, -1, -1, 14, -1, 14, -1, 14, -1, -1, -1);
    const __m256i one = _mm256_setr_epi16(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
    int32_t x = 0;
    for (; x + 4 <= width; x += 4, row += 16, acc += 16) {
        __m256i v = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)row));  // 4 pixels, 16 lanes
        __m256i m = _mm256_or_si256(_mm256_shuffle_epi8(v, spread), one);
        __m256i p = _mm256_mullo_epi16(v, m);  // α·c ≤ 65025: 16 bits unsigned
        __m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(p));
        __m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(p, 1));
        _mm256_storeu_si256((__m256i *)acc, _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)acc), lo));
        _mm256_storeu_si256((__m256i *)(acc + 8), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(acc + 8)), hi));
    }
    accumulate_scalar(row, width - x, acc);
}
#endif

void anim_box_accumulate_row(const uint8_t *row, int32_t width, uint32_t *acc) {
    ANIM_AVX2_OR_SCALAR(accumulate_avx2(row, width, acc), accumulate_scalar(row, width, acc));
}

#if defined(__SSE2__)
// The four sums of output column x (below 2^31, the area limit: the
// signed conversion is exact where write_pixel's is), as floats.
static inline __m128 column_sums(const uint32_t *acc, const int32_t *start, const int32_t *count, int32_t x) {
    const __m128i *p = (const __m128i *)(acc + 4 * (size_t)start[x]);
    __m128i sum = _mm_loadu_si128(p);
    for (int32_t k = 1; k < count[x]; k++) sum = _mm_add_epi32(sum, _mm_loadu_si128(p + k));
    return _mm_cvtepi32_ps(sum);
}
#endif

void anim_box_collapse_row(const uint32_t *acc, const int32_t *start, const int32_t *count, const float *column_weight,
                           float row_weight, int32_t columns, uint8_t *out) {
    int32_t x = 0;
#if defined(__SSE2__)
    // Four output pixels at once, channel by channel: write_pixel's float
    // operations in the same order, in lanes.
    const __m128 half = _mm_set1_ps(0.5f), top = _mm_set1_ps(255.0f), one = _mm_set1_ps(1.0f);
    const __m128 row = _mm_set1_ps(row_weight);
    for (; x + 4 <= columns; x += 4, out += 16) {
        __m128 r = column_sums(acc, start, count, x), g = column_sums(acc, start, count, x + 1);
        __m128 b = column_sums(acc, start, count, x + 2), a = column_sums(acc, start, count, x + 3);
        _MM_TRANSPOSE4_PS(r, g, b, a);  // now each holds one channel of the four pixels
        __m128 alpha = _mm_mul_ps(a, _mm_mul_ps(_mm_loadu_ps(column_weight + x), row));
        __m128 inverse = _mm_div_ps(one, a);
        __m128i ri = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(r, inverse), half));
        __m128i gi = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(g, inverse), half));
        __m128i bi = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(b, inverse), half));
        __m128i ai = _mm_cvttps_epi32(_mm_min_ps(_mm_add_ps(alpha, half), top));
        __m128i px = _mm_or_si128(_mm_or_si128(ri, _mm_slli_epi32(gi, 8)),
                                  _mm_or_si128(_mm_slli_epi32(bi, 16), _mm_slli_epi32(ai, 24)));
        __m128i shown = _mm_castps_si128(_mm_cmpge_ps(alpha, half));  // else transparent black
        _mm_storeu_si128((__m128i *)out, _mm_and_si128(px, shown));
    }
#endif
    for (; x < columns; x++, out += 4) {
        const uint32_t *p = acc + 4 * (size_t)start[x];
        uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int32_t k = 0; k < count[x]; k++, p += 4) {
            s0 += p[0];
            s1 += p[1];
            s2 += p[2];
            s3 += p[3];
        }
        write_pixel((float)s0, (float)s1, (float)s2, (float)s3, column_weight[x] * row_weight, out);
    }
}
