// Nearest palette colour by looking at every colour (see nearest.h), in
// one pass that keeps per lane the smallest distance and the first index
// at it: eight colours at a time with AVX2 where the processor has it
// (chosen at run time), one at a time otherwise.
#include "nearest.h"

#include "avx2_dispatch.h"

static inline int32_t distance_to(const int32_t *reds, const int32_t *greens, const int32_t *blues, int32_t i,
                                  int32_t r, int32_t g, int32_t b) {
    int32_t dr = reds[i] - r, dg = greens[i] - g, db = blues[i] - b;
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static int32_t nearest_scalar(const int32_t *reds, const int32_t *greens, const int32_t *blues, int32_t from,
                              int32_t count, int32_t r, int32_t g, int32_t b, int32_t *best, int32_t found) {
    for (int32_t i = from; i < count; i++) {
        int32_t d = distance_to(reds, greens, blues, i, r, g, b);
        if (d < *best) {
            *best = d;
            found = i;
        }
    }
    return found;
}

#ifdef ANIM_HAVE_AVX2_PATH
__attribute__((target("avx2"))) static int32_t nearest_avx2(const int32_t *reds, const int32_t *greens,
                                                            const int32_t *blues, int32_t count, int32_t r,
                                                            int32_t g, int32_t b, int32_t *distance) {
    const __m256i vr = _mm256_set1_epi32(r), vg = _mm256_set1_epi32(g), vb = _mm256_set1_epi32(b);
    __m256i best = _mm256_set1_epi32(INT32_MAX), at = _mm256_setzero_si256();
    __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i eight = _mm256_set1_epi32(8);
    int32_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i dr = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(reds + i)), vr);
        __m256i dg = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(greens + i)), vg);
        __m256i db = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(blues + i)), vb);
        __m256i sr = _mm256_mullo_epi32(dr, dr), sg = _mm256_mullo_epi32(dg, dg), sb = _mm256_mullo_epi32(db, db);
        // 3·sr + 4·sg + 2·sb with shifts: (sr + sb) · 2 + sr + sg · 4.
        __m256i d = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(_mm256_add_epi32(sr, sb), 1), sr),
                                     _mm256_slli_epi32(sg, 2));
        // Strictly nearer: a lane keeps the first index at its smallest distance.
        __m256i nearer = _mm256_cmpgt_epi32(best, d);
        best = _mm256_blendv_epi8(best, d, nearer);
        at = _mm256_blendv_epi8(at, index, nearer);
        index = _mm256_add_epi32(index, eight);
    }
    int32_t lanes[8], lanesAt[8];
    _mm256_storeu_si256((__m256i *)lanes, best);
    _mm256_storeu_si256((__m256i *)lanesAt, at);
    int32_t smallest = INT32_MAX, found = 0;
    for (int k = 0; k < 8; k++) {
        if (lanes[k] < smallest || (lanes[k] == smallest && lanesAt[k] < found)) {
            smallest = lanes[k];
            found = lanesAt[k];
        }
    }
    found = nearest_scalar(reds, greens, blues, i, count, r, g, b, &smallest, found);
    *distance = smallest;
    return found;
}
#endif

int32_t anim_palette_nearest(const int32_t *reds, const int32_t *greens, const int32_t *blues, int32_t count,
                             int32_t r, int32_t g, int32_t b, int32_t *distance) {
#ifdef ANIM_HAVE_AVX2_PATH
    if (anim_has_avx2()) return nearest_avx2(reds, greens, blues, count, r, g, b, distance);
#endif
    int32_t best = INT32_MAX;
    int32_t found = nearest_scalar(reds, greens, blues, 0, count, r, g, b, &best, 0);
    *distance = best;
    return found;
}
