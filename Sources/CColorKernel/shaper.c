// The matrix-shaper colour conversion's pixel loops (see shaper.h): one
// integer formula, eight pixels at a time with AVX2 where the processor
// has it (chosen at run time), one at a time otherwise; both give the same
// values.
#include "shaper.h"

#include <string.h>

#include "avx2_dispatch.h"

static inline uint32_t load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void store32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static inline uint32_t encode1(const anim_shaper *s, int32_t v) {
    v = (v + 8192) >> 14;
    v = v < 0 ? 0 : v > 16383 ? 16383 : v;
    return s->encode[v];
}

static inline uint32_t convert1(const anim_shaper *s, uint32_t p) {
    const int32_t *l = s->linear, *m = s->matrix;
    int32_t r = l[p & 0xFF], g = l[256 + ((p >> 8) & 0xFF)], b = l[512 + ((p >> 16) & 0xFF)];
    return encode1(s, m[0] * r + m[1] * g + m[2] * b) | encode1(s, m[3] * r + m[4] * g + m[5] * b) << 8 |
           encode1(s, m[6] * r + m[7] * g + m[8] * b) << 16 | (p & 0xFF000000u);
}

static void convert_scalar(const anim_shaper *s, const uint8_t *src, uint8_t *dst, size_t count) {
    if (count == 0) return;  /* (the vector loops' tail may be empty) */
    uint32_t last = load32(src) ^ 1, result = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t p = load32(src + 4 * i);
        if (p != last) {
            last = p;
            result = convert1(s, p);
        }
        store32(dst + 4 * i, result);
    }
}

static void changed_scalar(const anim_shaper *s, const uint8_t *src, uint8_t *shadow, uint8_t *dst, size_t count) {
    if (count == 0) return;
    uint32_t last = load32(src) ^ 1, result = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t p = load32(src + 4 * i);
        if (p == load32(shadow + 4 * i)) continue;
        store32(shadow + 4 * i, p);
        if (p != last) {
            last = p;
            result = convert1(s, p);
        }
        store32(dst + 4 * i, result);
    }
}

#ifdef ANIM_HAVE_AVX2_PATH
__attribute__((target("avx2"))) static inline __m256i encode8(const anim_shaper *s, __m256i v) {
    v = _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(8192)), 14);
    v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(16383));
    // Four bytes from each index (the table is padded); the first is it.
    return _mm256_and_si256(_mm256_i32gather_epi32((const int *)s->encode, v, 1), _mm256_set1_epi32(0xFF));
}

__attribute__((target("avx2"))) static inline __m256i convert8(const anim_shaper *s, __m256i p) {
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const int *l = (const int *)s->linear;
    __m256i r = _mm256_i32gather_epi32(l, _mm256_and_si256(p, byte), 4);
    __m256i g = _mm256_i32gather_epi32(l + 256, _mm256_and_si256(_mm256_srli_epi32(p, 8), byte), 4);
    __m256i b = _mm256_i32gather_epi32(l + 512, _mm256_and_si256(_mm256_srli_epi32(p, 16), byte), 4);
    const int32_t *m = s->matrix;
#define ROW(a, b2, c) \
    _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(a), r), \
                                      _mm256_mullo_epi32(_mm256_set1_epi32(b2), g)), \
                     _mm256_mullo_epi32(_mm256_set1_epi32(c), b))
    __m256i ro = encode8(s, ROW(m[0], m[1], m[2]));
    __m256i go = encode8(s, ROW(m[3], m[4], m[5]));
    __m256i bo = encode8(s, ROW(m[6], m[7], m[8]));
#undef ROW
    __m256i alpha = _mm256_and_si256(p, _mm256_set1_epi32((int)0xFF000000u));
    return _mm256_or_si256(_mm256_or_si256(ro, _mm256_slli_epi32(go, 8)),
                           _mm256_or_si256(_mm256_slli_epi32(bo, 16), alpha));
}

// Eight pixels of one colour (flat areas): that colour's result, kept
// for the next run of it.
typedef struct {
    uint32_t pixel, result;
} anim_memo;

__attribute__((target("avx2"))) static inline int flat8(const anim_shaper *s, __m256i p, anim_memo *memo,
                                                        __m256i *out) {
    uint32_t first = (uint32_t)_mm256_cvtsi256_si32(p);
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(p, _mm256_set1_epi32((int)first))) != -1) return 0;
    if (first != memo->pixel) {
        memo->pixel = first;
        memo->result = convert1(s, first);
    }
    *out = _mm256_set1_epi32((int)memo->result);
    return 1;
}

__attribute__((target("avx2"))) static void convert_avx2(const anim_shaper *s, const uint8_t *src, uint8_t *dst,
                                                          size_t count) {
    anim_memo memo = {load32(src) ^ 1, 0};
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + 4 * i)), out;
        if (!flat8(s, p, &memo, &out)) out = convert8(s, p);
        _mm256_storeu_si256((__m256i *)(dst + 4 * i), out);
    }
    convert_scalar(s, src + 4 * i, dst + 4 * i, count - i);
}

__attribute__((target("avx2"))) static void changed_avx2(const anim_shaper *s, const uint8_t *src, uint8_t *shadow,
                                                          uint8_t *dst, size_t count) {
    anim_memo memo = {load32(src) ^ 1, 0};
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + 4 * i));
        __m256i old = _mm256_loadu_si256((const __m256i *)(shadow + 4 * i));
        __m256i same = _mm256_cmpeq_epi32(p, old);
        if (_mm256_movemask_epi8(same) == -1) continue;
        _mm256_storeu_si256((__m256i *)(shadow + 4 * i), p);
        __m256i out;
        if (!flat8(s, p, &memo, &out)) out = convert8(s, p);
        // Unchanged lanes keep what the target holds (a blend and a plain
        // store: AMD's vpmaskmovd store was a large share of this loop's
        // time; Tools/bench/color-cost.sh).
        __m256i kept = _mm256_loadu_si256((const __m256i *)(dst + 4 * i));
        _mm256_storeu_si256((__m256i *)(dst + 4 * i), _mm256_blendv_epi8(out, kept, same));
    }
    changed_scalar(s, src + 4 * i, shadow + 4 * i, dst + 4 * i, count - i);
}

#endif

void anim_shaper_convert(const anim_shaper *s, const uint8_t *src, uint8_t *dst, size_t count) {
    if (count == 0) return;
    ANIM_AVX2_OR_SCALAR(convert_avx2(s, src, dst, count), convert_scalar(s, src, dst, count));
}

void anim_shaper_convert_changed(const anim_shaper *s, const uint8_t *src, uint8_t *shadow, uint8_t *dst,
                                 size_t count) {
    if (count == 0) return;
    ANIM_AVX2_OR_SCALAR(changed_avx2(s, src, shadow, dst, count), changed_scalar(s, src, shadow, dst, count));
}
