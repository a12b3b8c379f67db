// Palette expansion (see palette.h): eight pixels at a time with AVX2
// gathers where the processor has it (chosen at run time), one at a time
// otherwise. Branch-free either way: a GIF's transparent pixels come in
// runs and speckles alike, and a branch on each mispredicts on the latter.
#include "palette.h"

#include "avx2_dispatch.h"

static void expand_scalar(const uint8_t *indices, size_t count, const uint32_t *palette, uint32_t *out, int masked) {
    if (!masked) {
        for (size_t x = 0; x < count; x++) out[x] = palette[indices[x]];
        return;
    }
    for (size_t x = 0; x < count; x++) {
        uint32_t v = palette[indices[x]];
        uint32_t opaque = 0u - (v >> 31);
        out[x] = (v & opaque) | (out[x] & ~opaque);
    }
}

#ifdef ANIM_HAVE_AVX2_PATH
__attribute__((target("avx2"))) static void expand_avx2(const uint8_t *indices, size_t count, const uint32_t *palette,
                                                       uint32_t *out, int masked) {
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        __m256i idx = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(indices + x)));
        __m256i v = _mm256_i32gather_epi32((const int *)palette, idx, 4);
        if (masked) {
            // Alpha's top bit, spread over the pixel: all ones where opaque.
            __m256i opaque = _mm256_srai_epi32(v, 31);
            __m256i old = _mm256_loadu_si256((const __m256i *)(out + x));
            v = _mm256_blendv_epi8(old, v, opaque);
        }
        _mm256_storeu_si256((__m256i *)(out + x), v);
    }
    expand_scalar(indices + x, count - x, palette, out + x, masked);
}

#endif

void anim_palette_expand(const uint8_t *indices, size_t count, const uint32_t *palette, uint32_t *out, int masked) {
    ANIM_AVX2_OR_SCALAR(expand_avx2(indices, count, palette, out, masked), expand_scalar(indices, count, palette, out, masked));
}
