/* The common PNG image decoded without libpng: 8 bits a sample or fewer
   (palette and grey), not interlaced, a header of IHDR, PLTE and tRNS as the
   specification orders them. The zlib stream is inflated by libdeflate in
   one call (faster than zlib: Tools/bench/run.sh), the rows unfiltered
   here (Paeth, Avg and Sub a pixel at a time with SSE2: libpng's are a
   byte at a time in Debian's build) and widened to RGBA as libpng's
   transforms would.
   Anything else, and any data libdeflate or a CRC rejects, goes to libpng
   (`anim_png_decode`), whose answer and message stay the reference: the
   tests and the decode fuzzer compare the two on every image. */
#include "pngbridge.h"
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Per-thread scratch: the inflated rows and the joined zlib stream, reused
   from frame to frame (fresh buffers cost page faults on every frame); a
   buffer over KEEP_LIMIT is freed after use. */
#define KEEP_LIMIT ((size_t)32 << 20)
typedef struct {
    struct libdeflate_decompressor *inflater;
    uint8_t *rows; size_t rows_cap;
    uint8_t *joined; size_t joined_cap;
} scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p) {
    scratch *s = p;
    if (!s) return;
    if (s->inflater) libdeflate_free_decompressor(s->inflater);
    free(s->rows); free(s->joined); free(s);
}
static void scratch_make_key(void) { pthread_key_create(&scratch_key, scratch_free); }

static scratch *scratch_get(void) {
    pthread_once(&scratch_once, scratch_make_key);
    scratch *s = pthread_getspecific(scratch_key);
    if (s) return s;
    s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->inflater = libdeflate_alloc_decompressor();
    if (!s->inflater || pthread_setspecific(scratch_key, s) != 0) { scratch_free(s); return NULL; }
    return s;
}

static uint8_t *reserve(uint8_t **buf, size_t *cap, size_t need) {
    if (*cap >= need) return *buf;
    free(*buf);
    *buf = malloc(need);
    *cap = *buf ? need : 0;
    return *buf;
}

static void release_if_large(uint8_t **buf, size_t *cap) {
    if (*cap > KEEP_LIMIT) { free(*buf); *buf = NULL; *cap = 0; }
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

typedef struct {
    uint32_t width, height;
    int depth, color_type;
    uint8_t palette[256][4];   /* RGBA; entries past PLTE are opaque black, as libpng's */
    int palette_size;          /* entries in PLTE */
    int has_key;               /* tRNS for grey or RGB */
    uint16_t key[3];
} header_info;

/* IHDR, then PLTE, then tRNS, each at most once, in the combinations libpng
   accepts without a word; 0 when it is such a header. */
static int read_header(const uint8_t *h, size_t size, header_info *info) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 + 25 || memcmp(h, signature, 8) != 0) return 1;
    size_t pos = 8;
    int seen_plte = 0, seen_trns = 0, seen_ihdr = 0;
    memset(info, 0, sizeof *info);
    for (int i = 0; i < 256; i++) info->palette[i][3] = 255;
    while (pos + 12 <= size) {
        uint32_t len = be32(h + pos);
        const uint8_t *type = h + pos + 4, *data = h + pos + 8;
        if (len > size - pos - 12) return 1;
        if (libdeflate_crc32(0, type, (size_t)len + 4) != be32(data + len)) return 1;
        if (!seen_ihdr) {
            if (memcmp(type, "IHDR", 4) != 0 || len != 13) return 1;
            info->width = be32(data); info->height = be32(data + 4);
            info->depth = data[8]; info->color_type = data[9];
            if (data[10] != 0 || data[11] != 0 || data[12] != 0) return 1;   /* interlaced: libpng */
            int d = info->depth, c = info->color_type;
            int ok = (c == 0 && (d == 1 || d == 2 || d == 4 || d == 8)) ||
                     (c == 3 && (d == 1 || d == 2 || d == 4 || d == 8)) ||
                     ((c == 2 || c == 4 || c == 6) && d == 8);
            if (!ok) return 1;
            seen_ihdr = 1;
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (seen_plte || seen_trns || info->color_type != 3) return 1;
            if (len == 0 || len % 3 != 0 || len / 3 > (1u << info->depth)) return 1;
            info->palette_size = (int)(len / 3);
            for (uint32_t i = 0; i < len / 3; i++) {
                info->palette[i][0] = data[3 * i];
                info->palette[i][1] = data[3 * i + 1];
                info->palette[i][2] = data[3 * i + 2];
            }
            seen_plte = 1;
        } else if (memcmp(type, "tRNS", 4) == 0) {
            if (seen_trns) return 1;
            if (info->color_type == 3) {
                /* more entries than PLTE: libpng calls it invalid (an error here) */
                if (!seen_plte || len == 0 || len > (uint32_t)info->palette_size) return 1;
                for (uint32_t i = 0; i < len; i++) info->palette[i][3] = data[i];
            } else if (info->color_type == 0) {
                if (len != 2) return 1;
                info->key[0] = (uint16_t)(data[0] << 8 | data[1]);
                info->has_key = 1;
            } else if (info->color_type == 2) {
                if (len != 6) return 1;
                for (int k = 0; k < 3; k++) info->key[k] = (uint16_t)(data[2 * k] << 8 | data[2 * k + 1]);
                info->has_key = 1;
            } else {
                return 1;
            }
            seen_trns = 1;
        } else {
            return 1;
        }
        pos += (size_t)len + 12;
    }
    if (pos != size || !seen_ihdr) return 1;
    if (info->color_type == 3 && !seen_plte) return 1;
    /* A tRNS key out of range for the depth: libpng warns and masks it;
       leave that reading to libpng. */
    if (info->has_key && info->depth == 8) {
        for (int k = 0; k < (info->color_type == 2 ? 3 : 1); k++) if (info->key[k] > 255) return 1;
    }
    if (info->has_key && info->depth < 8 && info->key[0] >= (1u << info->depth)) return 1;
    return 0;
}

/* ---- Unfiltering: `cur` holds the filtered row, `prev` the row above
   unfiltered (NULL for the first row), `bpp` bytes a pixel (1 below 8 bits). */

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

#ifdef __SSE2__
/* Each SSE2 loop is always inlined where bpp is the constant 3 or 4, so the
   pixel loads and stores are single moves, not calls to memcpy. */
#define INLINE static inline __attribute__((always_inline))
INLINE __m128i load_px(const uint8_t *p, size_t bpp) {
    uint32_t v = 0;
    memcpy(&v, p, bpp);
    return _mm_cvtsi32_si128((int)v);
}
INLINE void store_px(uint8_t *p, __m128i v, size_t bpp) {
    uint32_t x = (uint32_t)_mm_cvtsi128_si32(v);
    memcpy(p, &x, bpp);
}
static inline __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

/* The Paeth predictor of 16-bit lanes, each lane its own byte. */
INLINE __m128i paeth_pred(__m128i a, __m128i b, __m128i c) {
    __m128i pas = _mm_sub_epi16(b, c), pbs = _mm_sub_epi16(a, c);
    __m128i pa = abs16(pas), pb = abs16(pbs), pc = abs16(_mm_add_epi16(pas, pbs));
    /* a where pa <= pb and pa <= pc; else b where pb <= pc; else c */
    __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i not_b = _mm_cmpgt_epi16(pb, pc);
    __m128i bc = _mm_or_si128(_mm_and_si128(not_b, c), _mm_andnot_si128(not_b, b));
    return _mm_or_si128(_mm_and_si128(not_a, bc), _mm_andnot_si128(not_a, a));
}

/* Paeth for 3 or 4 bytes a pixel, the four lanes of a pixel at once. */
INLINE void paeth_px(uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    __m128i a = zero, c = zero;
    for (size_t i = 0; i + bpp <= n; i += bpp) {
        __m128i b = _mm_unpacklo_epi8(load_px(prev + i, bpp), zero);
        __m128i x = _mm_unpacklo_epi8(load_px(cur + i, bpp), zero);
        a = _mm_and_si128(_mm_add_epi16(x, paeth_pred(a, b, c)), _mm_set1_epi16(0xFF));
        c = b;
        store_px(cur + i, _mm_packus_epi16(a, zero), bpp);
    }
}

/* Paeth for two rows at once, both Paeth-filtered: row y's pixel x in the
   low half of a register, row y+1's pixel x-1 in the high half. The second
   needs only pixels of row y already done (its b is row y's pixel x-1,
   which the step before produced; its c the one before that), and the
   chain from one result to the next is as long as for one row, so two rows
   take little more than the time of one. `cur0` is row y, `cur1` row y+1,
   `prev` row y-1 (all `n` bytes); the last step finishes row y+1 alone.
   Lanes are independent, so a 3-byte pixel may be loaded as 4 bytes where
   the row goes on (the fourth lane is never stored). */
INLINE void paeth_pair_step(uint8_t *cur0, uint8_t *cur1, const uint8_t *prev, size_t x, size_t w, size_t bpp,
                            size_t load, __m128i *a, __m128i *c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i b0 = x < w ? load_px(prev + x * bpp, load) : zero;
    __m128i x0 = x < w ? load_px(cur0 + x * bpp, load) : zero;
    __m128i x1 = x > 0 ? load_px(cur1 + (x - 1) * bpp, load) : zero;
    __m128i b = _mm_unpacklo_epi64(_mm_unpacklo_epi8(b0, zero), *a);
    __m128i v = _mm_unpacklo_epi8(_mm_unpacklo_epi32(x0, x1), zero);
    *a = _mm_and_si128(_mm_add_epi16(v, paeth_pred(*a, b, *c)), _mm_set1_epi16(0xFF));
    *c = b;
    __m128i packed = _mm_packus_epi16(*a, zero);
    if (x < w) store_px(cur0 + x * bpp, packed, bpp);
    if (x > 0) store_px(cur1 + (x - 1) * bpp, _mm_srli_si128(packed, 4), bpp);
}

INLINE void paeth_pair_px(uint8_t *cur0, uint8_t *cur1, const uint8_t *prev, size_t n, size_t bpp) {
    size_t w = n / bpp;
    __m128i a = _mm_setzero_si128(), c = a;   /* both halves: the last results, the last b */
    size_t x = 0;
    paeth_pair_step(cur0, cur1, prev, x++, w, bpp, bpp, &a, &c);
    for (; x + 1 < w; x++) paeth_pair_step(cur0, cur1, prev, x, w, bpp, 4, &a, &c);
    for (; x <= w; x++) paeth_pair_step(cur0, cur1, prev, x, w, bpp, bpp, &a, &c);
}

INLINE void avg_px(uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp) {
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= n; i += bpp) {
        __m128i b = load_px(prev + i, bpp);
        /* floor((a + b) / 2): pavgb rounds up, so take back the odd bit */
        __m128i avg = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
        a = _mm_add_epi8(load_px(cur + i, bpp), avg);
        store_px(cur + i, a, bpp);
    }
}

INLINE void sub_px(uint8_t *cur, size_t n, size_t bpp) {
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= n; i += bpp) {
        a = _mm_add_epi8(load_px(cur + i, bpp), a);
        store_px(cur + i, a, bpp);
    }
}
#endif

/* 0 when done; 1 for a filter type PNG does not define. */
static int unfilter(int filter, uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp) {
    switch (filter) {
    case 0:
        return 0;
    case 1:
#ifdef __SSE2__
        if (bpp == 4) { sub_px(cur, n, 4); return 0; }
        if (bpp == 3) { sub_px(cur, n, 3); return 0; }
#endif
        for (size_t i = bpp; i < n; i++) cur[i] = (uint8_t)(cur[i] + cur[i - bpp]);
        return 0;
    case 2:
        if (prev) for (size_t i = 0; i < n; i++) cur[i] = (uint8_t)(cur[i] + prev[i]);
        return 0;
    case 3:
        if (!prev) {
            for (size_t i = bpp; i < n; i++) cur[i] = (uint8_t)(cur[i] + (cur[i - bpp] >> 1));
            return 0;
        }
#ifdef __SSE2__
        if (bpp == 4) { avg_px(cur, prev, n, 4); return 0; }
        if (bpp == 3) { avg_px(cur, prev, n, 3); return 0; }
#endif
        for (size_t i = 0; i < bpp; i++) cur[i] = (uint8_t)(cur[i] + (prev[i] >> 1));
        for (size_t i = bpp; i < n; i++) cur[i] = (uint8_t)(cur[i] + ((cur[i - bpp] + prev[i]) >> 1));
        return 0;
    case 4:
        if (!prev) {   /* Paeth with no row above is Sub */
            for (size_t i = bpp; i < n; i++) cur[i] = (uint8_t)(cur[i] + cur[i - bpp]);
            return 0;
        }
#ifdef __SSE2__
        if (bpp == 4) { paeth_px(cur, prev, n, 4); return 0; }
        if (bpp == 3) { paeth_px(cur, prev, n, 3); return 0; }
#endif
        for (size_t i = 0; i < bpp; i++) cur[i] = (uint8_t)(cur[i] + prev[i]);
        for (size_t i = bpp; i < n; i++) cur[i] = (uint8_t)(cur[i] + paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        return 0;
    default:
        return 1;
    }
}

/* Whether rows y and y+1 (of the inflated `rows`, a filter byte each)
   are both Paeth below a row, with pixels of 3 or 4 bytes: unfiltered
   together by `paeth_two`. */
static int paeth_pair(const uint8_t *rows, uint32_t y, uint32_t height, size_t rowbytes, size_t bpp) {
#ifdef __SSE2__
    return y > 0 && y + 1 < height && (bpp == 3 || bpp == 4) && rows[(size_t)y * (rowbytes + 1)] == 4 &&
           rows[(size_t)(y + 1) * (rowbytes + 1)] == 4;
#else
    (void)rows; (void)y; (void)height; (void)rowbytes; (void)bpp;
    return 0;
#endif
}

static void paeth_two(uint8_t *cur0, uint8_t *cur1, const uint8_t *prev, size_t n, size_t bpp) {
#ifdef __SSE2__
    if (bpp == 4) paeth_pair_px(cur0, cur1, prev, n, 4);
    else paeth_pair_px(cur0, cur1, prev, n, 3);
#else
    (void)cur0; (void)cur1; (void)prev; (void)n; (void)bpp;
#endif
}

/* ---- Widening one unfiltered row to RGBA8, as png_set_expand,
   png_set_gray_to_rgb and png_set_add_alpha do. */

#if defined(__x86_64__)
/* RGB without a tRNS key, eight pixels at a time: the two 12-byte halves
   each spread to four RGBA pixels in their lane, alpha set. Reads 4 bytes
   past the eighth pixel, so it stops 10 pixels before the row's end;
   returns the pixels done. (gradient.png's rows: a tenth of its decoding
   a pixel at a time.) */
__attribute__((target("avx2"))) static uint32_t widen_rgb_avx2(const uint8_t *src, uint8_t *dst, uint32_t w) {
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,  //
                                            0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    uint32_t x = 0;
    for (; x + 10 <= w; x += 8, src += 24, dst += 32) {
        __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)src)),
                                            _mm_loadu_si128((const __m128i *)(src + 12)), 1);
        _mm256_storeu_si256((__m256i *)dst, _mm256_or_si256(_mm256_shuffle_epi8(v, spread), alpha));
    }
    return x;
}
#endif

static void widen(const header_info *info, const uint8_t *src, uint8_t *dst) {
    uint32_t w = info->width;
    int d = info->depth;
    switch (info->color_type) {
    case 2:
#if defined(__x86_64__)
        if (!info->has_key && __builtin_cpu_supports("avx2")) {
            uint32_t done = widen_rgb_avx2(src, dst, w);
            src += 3 * (size_t)done;
            dst += 4 * (size_t)done;
            w -= done;
        }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        {   /* four bytes in, the fourth replaced by alpha: 0 where the
               colour is the tRNS key (a key above 24 bits never matches) */
            uint32_t key = info->has_key ? (uint32_t)info->key[0] | (uint32_t)info->key[1] << 8 | (uint32_t)info->key[2] << 16
                                         : 0xFFFFFFFFu;
            for (uint32_t x = 0; x + 1 < w; x++, src += 3, dst += 4) {
                uint32_t v;
                memcpy(&v, src, 4);
                v &= 0xFFFFFFu;
                v |= v == key ? 0 : 0xFF000000u;
                memcpy(dst, &v, 4);
            }
            w = 1;   /* the last pixel, whose fourth byte is past the row, below */
        }
#endif
        for (uint32_t x = 0; x < w; x++, src += 3, dst += 4) {
            dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2];
            dst[3] = info->has_key && src[0] == info->key[0] && src[1] == info->key[1] && src[2] == info->key[2] ? 0 : 255;
        }
        return;
    case 4:
        for (uint32_t x = 0; x < w; x++, src += 2, dst += 4) {
            dst[0] = dst[1] = dst[2] = src[0]; dst[3] = src[1];
        }
        return;
    case 3:
        if (d == 8) {
            for (uint32_t x = 0; x < w; x++, dst += 4) memcpy(dst, info->palette[src[x]], 4);
            return;
        }
        break;
    case 0:
        if (d == 8) {
            for (uint32_t x = 0; x < w; x++, dst += 4) {
                dst[0] = dst[1] = dst[2] = src[x];
                dst[3] = info->has_key && src[x] == info->key[0] ? 0 : 255;
            }
            return;
        }
        break;
    }
    /* 1, 2 or 4 bits a sample, the leftmost pixel in the high bits */
    unsigned mask = (1u << d) - 1, scale = 255 / mask;
    for (uint32_t x = 0; x < w; x++, dst += 4) {
        size_t bit = (size_t)x * d;
        unsigned v = (src[bit >> 3] >> (8 - d - (bit & 7))) & mask;
        if (info->color_type == 3) {
            memcpy(dst, info->palette[v], 4);
        } else {
            dst[0] = dst[1] = dst[2] = (uint8_t)(v * scale);
            dst[3] = info->has_key && v == info->key[0] ? 0 : 255;
        }
    }
}

int anim_png_decode_fast(const uint8_t *header, size_t header_size,
                         const anim_png_segment *segments, size_t segment_count,
                         uint32_t width, uint32_t height, uint8_t *out, size_t stride) {
    header_info info;
    if (read_header(header, header_size, &info) != 0) return 1;
    if (info.width != width || info.height != height || width == 0 || height == 0 || segment_count == 0) return 1;
    size_t channels = info.color_type == 2 ? 3 : info.color_type == 4 ? 2 : info.color_type == 6 ? 4 : 1;
    size_t rowbytes = ((size_t)width * channels * (size_t)info.depth + 7) / 8;
    size_t bpp = info.depth < 8 ? 1 : channels;
    if (rowbytes + 1 > ((size_t)1 << 40) / height) return 1;
    size_t need = (rowbytes + 1) * height;

    scratch *s = scratch_get();
    if (!s) return 1;
    /* The zlib stream: in place when one chunk holds it, else joined. */
    const uint8_t *stream;
    size_t stream_size = 0;
    for (size_t i = 0; i < segment_count; i++) {
        const anim_png_segment *g = &segments[i];
        if (g->data_offset > g->chunk_length) return 1;
        if (libdeflate_crc32(0, g->chunk, g->chunk_length) != g->stored_crc) return 1;
        stream_size += g->chunk_length - g->data_offset;
    }
    if (segment_count == 1) {
        stream = segments[0].chunk + segments[0].data_offset;
    } else {
        uint8_t *joined = reserve(&s->joined, &s->joined_cap, stream_size ? stream_size : 1);
        if (!joined) return 1;
        size_t at = 0;
        for (size_t i = 0; i < segment_count; i++) {
            size_t n = segments[i].chunk_length - segments[i].data_offset;
            memcpy(joined + at, segments[i].chunk + segments[i].data_offset, n);
            at += n;
        }
        stream = joined;
    }
    /* zlib header: deflate, window up to 32 KiB, no preset dictionary. The
       Adler-32 after the stream is not checked, as in the libpng path (the
       chunk CRCs guard the data). */
    int result = 1;
    uint8_t *rows = NULL;
    if (stream_size < 2 || (stream[0] & 0x0F) != 8 || (stream[0] >> 4) > 7 ||
        ((unsigned)stream[0] << 8 | stream[1]) % 31 != 0 || (stream[1] & 0x20)) goto done;
    rows = reserve(&s->rows, &s->rows_cap, need);
    if (!rows) goto done;
    if (libdeflate_deflate_decompress(s->inflater, stream + 2, stream_size - 2, rows, need, NULL) != LIBDEFLATE_SUCCESS)
        goto done;
    for (uint32_t y = 0; y < height; y++)   /* every filter type valid before a pixel is written */
        if (rows[(size_t)y * (rowbytes + 1)] > 4) goto done;
    if (info.color_type == 6) {
        /* RGBA: unfiltered straight into the output rows */
        for (uint32_t y = 0; y < height;) {
            const uint8_t *row = rows + (size_t)y * (rowbytes + 1);
            uint8_t *dst = out + (size_t)y * stride;
            memcpy(dst, row + 1, rowbytes);
            if (paeth_pair(rows, y, height, rowbytes, bpp)) {
                memcpy(dst + stride, row + rowbytes + 2, rowbytes);
                paeth_two(dst, dst + stride, dst - stride, rowbytes, bpp);
                y += 2;
                continue;
            }
            unfilter(row[0], dst, y ? dst - stride : NULL, rowbytes, bpp);
            y++;
        }
    } else {
        for (uint32_t y = 0; y < height;) {
            uint8_t *row = rows + (size_t)y * (rowbytes + 1);
            if (paeth_pair(rows, y, height, rowbytes, bpp)) {
                paeth_two(row + 1, row + rowbytes + 2, row - rowbytes, rowbytes, bpp);
                widen(&info, row + 1, out + (size_t)y * stride);
                widen(&info, row + rowbytes + 2, out + (size_t)(y + 1) * stride);
                y += 2;
                continue;
            }
            unfilter(row[0], row + 1, y ? row + 1 - (rowbytes + 1) : NULL, rowbytes, bpp);
            widen(&info, row + 1, out + (size_t)y * stride);
            y++;
        }
    }
    result = 0;
done:
    release_if_large(&s->rows, &s->rows_cap);
    release_if_large(&s->joined, &s->joined_cap);
    return result;
}
