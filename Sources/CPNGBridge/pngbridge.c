#include "pngbridge.h"
#include <png.h>
#include <zlib.h>
#include <libdeflate.h>
#include <zopfli/zopfli.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct {
    const uint8_t *header; size_t header_size;
    const anim_png_segment *segments; size_t count;
    size_t stage;        /* 0 header, then 1+2k .. chunks, last IEND */
    size_t seg;          /* current segment */
    size_t pos;          /* position inside the current piece */
    int part;            /* 0 chunk head (len+type), 1 data, 2 crc */
    int done_iend;
    anim_png_result *result;
} reader_state;

static const uint8_t iend_chunk[12] = {0,0,0,0,'I','E','N','D',0xAE,0x42,0x60,0x82};

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static void bridge_error(png_structp png, png_const_charp msg) {
    anim_png_result *r = (anim_png_result *)png_get_error_ptr(png);
    if (r && r->error_code == 0) {
        r->error_code = 1;
        snprintf(r->message, sizeof r->message, "%s", msg ? msg : "libpng error");
    }
    png_longjmp(png, 1);
}

static void bridge_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

/* Serves header, then each segment as an IDAT chunk (CRC checked here against
   the original chunk, then ignored by libpng), then IEND. */
static void bridge_read(png_structp png, png_bytep out, size_t length) {
    reader_state *s = (reader_state *)png_get_io_ptr(png);
    while (length > 0) {
        if (s->stage == 0) {
            size_t n = s->header_size - s->pos;
            if (n > length) n = length;
            memcpy(out, s->header + s->pos, n);
            s->pos += n; out += n; length -= n;
            if (s->pos == s->header_size) { s->stage = 1; s->pos = 0; s->part = 0; }
            continue;
        }
        if (s->seg >= s->count) {
            size_t n = 12 - s->pos;
            if (n == 0) { png_error(png, "Read past IEND"); }
            if (n > length) n = length;
            memcpy(out, iend_chunk + s->pos, n);
            s->pos += n; out += n; length -= n;
            continue;
        }
        const anim_png_segment *g = &s->segments[s->seg];
        uint32_t data_len = g->chunk_length - g->data_offset;
        if (s->part == 0) {
            uint8_t head[8];
            if (s->pos == 0) {
                uint32_t crc = libdeflate_crc32(0, g->chunk, g->chunk_length);  /* zlib's is 3x slower */
                if (crc != g->stored_crc) {
                    s->result->error_code = 2;
                    snprintf(s->result->message, sizeof s->result->message,
                             "CRC mismatch in %.4s chunk", (const char *)g->chunk);
                    png_longjmp(png, 1);
                }
            }
            put_be32(head, data_len); memcpy(head + 4, "IDAT", 4);
            size_t n = 8 - s->pos;
            if (n > length) n = length;
            memcpy(out, head + s->pos, n);
            s->pos += n; out += n; length -= n;
            if (s->pos == 8) { s->part = 1; s->pos = 0; }
        } else if (s->part == 1) {
            size_t n = data_len - s->pos;
            if (n > length) n = length;
            memcpy(out, g->chunk + g->data_offset + s->pos, n);
            s->pos += n; out += n; length -= n;
            if (s->pos == data_len) { s->part = 2; s->pos = 0; }
        } else {
            size_t n = 4 - s->pos;
            if (n > length) n = length;
            memset(out, 0, n);      /* CRC ignored: checked above */
            s->pos += n; out += n; length -= n;
            if (s->pos == 4) { s->part = 0; s->pos = 0; s->seg++; }
        }
    }
}

static int decode_core(const uint8_t *header, size_t header_size, const anim_png_segment *segments,
                       size_t segment_count, uint32_t width, uint32_t height, uint8_t *out, size_t stride,
                       anim_png_row_fn each_row, void *context, anim_png_result *result);

int anim_png_decode(const uint8_t *header, size_t header_size,
                    const anim_png_segment *segments, size_t segment_count,
                    uint32_t width, uint32_t height,
                    uint8_t *out, size_t stride, anim_png_result *result) {
    return decode_core(header, header_size, segments, segment_count, width, height, out, stride, NULL, NULL, result);
}

int anim_png_decode_rows(const uint8_t *header, size_t header_size,
                         const anim_png_segment *segments, size_t segment_count,
                         uint32_t width, uint32_t height, anim_png_row_fn each_row, void *context,
                         anim_png_result *result) {
    return decode_core(header, header_size, segments, segment_count, width, height, NULL, 0, each_row, context,
                       result);
}

static int decode_core(const uint8_t *header, size_t header_size, const anim_png_segment *segments,
                       size_t segment_count, uint32_t width, uint32_t height, uint8_t *out, size_t stride,
                       anim_png_row_fn each_row, void *context, anim_png_result *result) {
    memset(result, 0, sizeof *result);
    reader_state state;
    memset(&state, 0, sizeof state);
    state.header = header; state.header_size = header_size;
    state.segments = segments; state.count = segment_count;
    state.result = result;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, result, bridge_error, bridge_warning);
    if (!png) { result->error_code = 1; strcpy(result->message, "out of memory"); return 1; }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); result->error_code = 1; strcpy(result->message, "out of memory"); return 1; }
    volatile uint32_t rows = 0;
    uint8_t *volatile row = NULL;  /* each_row's buffer */
    if (setjmp(png_jmpbuf(png))) {
        result->rows_done = rows;
        if (result->error_code == 0) { result->error_code = 1; strcpy(result->message, "libpng error"); }
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        return result->error_code;
    }
    png_set_read_fn(png, &state, bridge_read);
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    /* libpng's benign errors are warnings: what libpng reads here is a
       repacked PNG (IHDR, PLTE, tRNS, the frame's data, IEND), so they are
       the data's "Too much image data" and "Extra compressed data", which
       Chromium shows the frame with (APNG suite 060: `fdAT` too large). */
    png_set_benign_errors(png, 1);
#ifdef PNG_IGNORE_ADLER32
    /* The chunk CRCs, checked in bridge_read over the compressed bytes, guard
       the data; zlib's Adler-32 over the (larger) inflated bytes would cost
       a noticeable part of the decode again (Tools/bench/run.sh). */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
#ifdef PNG_CHECK_FOR_INVALID_INDEX_SUPPORTED
    /* A palette index past PLTE shows as opaque black (libpng's expansion,
       and the fast path's), not as an error at the end of the image. */
    png_set_check_for_invalid_index(png, 0);
#endif
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        result->error_code = 3;
        strcpy(result->message, "image size does not match the frame");
        png_destroy_read_struct(&png, &info, NULL);
        return 3;
    }
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after transforms");
    }
    if (each_row) {
        if (passes != 1) {
            result->error_code = 4;
            strcpy(result->message, "interlaced: rows come in passes");
            png_destroy_read_struct(&png, &info, NULL);
            return 4;
        }
        row = malloc((size_t)width * 4);
        if (!row) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, row, NULL);
            each_row(context, row);
            rows = y + 1;
        }
    } else {
        for (int p = 0; p < passes; p++) {
            for (uint32_t y = 0; y < height; y++) {
                png_read_row(png, out + (size_t)y * stride, NULL);
                if (passes == 1) rows = y + 1;
            }
        }
        if (passes > 1) rows = height;
    }
    png_read_end(png, NULL);
    result->rows_done = rows;
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return 0;
}

void anim_png_free(void *p) { free(p); }

uint32_t anim_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    return libdeflate_crc32(crc, data, size);
}

/* ---- Filtering and deflating APNG frame data (libdeflate) ---- */

#include <libdeflate.h>

static inline uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Filters one row with filter `f` into out (rowbytes bytes, after the filter
   byte). One loop per filter, the first pixel apart, so each loop is
   branch-free (Sub and Up vectorise). */
static void filter_row(int f, const uint8_t *row, const uint8_t *prev, size_t rowbytes, int bpp, uint8_t *out) {
    size_t lead = (size_t)bpp < rowbytes ? (size_t)bpp : rowbytes;
    switch (f) {
    case 0:
        memcpy(out, row, rowbytes);
        return;
    case 1:
        memcpy(out, row, lead);
        for (size_t i = lead; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        return;
    case 2:
        if (!prev) { memcpy(out, row, rowbytes); return; }
        for (size_t i = 0; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - prev[i]);
        return;
    case 3:
        if (!prev) {
            memcpy(out, row, lead);
            for (size_t i = lead; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - (row[i - bpp] >> 1));
            return;
        }
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - (prev[i] >> 1));
        {
            size_t i = lead;
#ifdef __SSE2__
            const __m128i one = _mm_set1_epi8(1);
            for (; i + 16 <= rowbytes; i += 16) {
                __m128i a = _mm_loadu_si128((const __m128i *)(row + i - bpp));
                __m128i b = _mm_loadu_si128((const __m128i *)(prev + i));
                /* floor((a + b) / 2): the rounded-up mean less the odd bit. */
                __m128i mean = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
                _mm_storeu_si128((__m128i *)(out + i),
                                 _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(row + i)), mean));
            }
#endif
            for (; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - ((row[i - bpp] + prev[i]) >> 1));
        }
        return;
    default:
        if (!prev) {   /* Paeth with no row above is Sub */
            memcpy(out, row, lead);
            for (size_t i = lead; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
            return;
        }
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - prev[i]);
        size_t i = lead;
#ifdef __SSE2__
        /* Eight bytes at a time in 16-bit lanes: every input is an original
           byte (filtering, unlike unfiltering, has no chain). */
        const __m128i zero = _mm_setzero_si128();
        for (; i + 8 <= rowbytes; i += 8) {
            __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(row + i - bpp)), zero);
            __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(prev + i)), zero);
            __m128i c = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(prev + i - bpp)), zero);
            __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c), pc = _mm_add_epi16(pa, pb);
            pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
            pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
            pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
            /* a where pa <= pb and pa <= pc; else b where pb <= pc; else c. */
            __m128i notA = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i useC = _mm_cmpgt_epi16(pb, pc);
            __m128i bc = _mm_or_si128(_mm_and_si128(useC, c), _mm_andnot_si128(useC, b));
            __m128i pred = _mm_or_si128(_mm_and_si128(notA, bc), _mm_andnot_si128(notA, a));
            __m128i x = _mm_loadl_epi64((const __m128i *)(row + i));
            _mm_storel_epi64((__m128i *)(out + i), _mm_sub_epi8(x, _mm_packus_epi16(pred, zero)));
        }
#endif
        for (; i < rowbytes; i++) out[i] = (uint8_t)(row[i] - paeth(row[i - bpp], prev[i], prev[i - bpp]));
        return;
    }
}

/* The whole image filtered: strategy -1 picks per row the filter with the
   smallest sum of absolute (signed) values, as libpng does; 0-4 use one filter. */
/* Σ |(int8_t)b| over the row: the heuristic of libpng's adaptive filter
   choice (the smallest sum of magnitudes wins). */
static unsigned long signed_magnitude_sum(const uint8_t *p, size_t n) {
    unsigned long sum = 0;
    size_t i = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    __m128i acc = zero;
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_min_epu8(v, _mm_sub_epi8(zero, v)), zero));
    }
    sum = (unsigned long)_mm_cvtsi128_si64(acc) + (unsigned long)_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc));
#endif
    for (; i < n; i++) sum += p[i] < 128 ? p[i] : 256 - p[i];
    return sum;
}

/* A buffer for a large image: from 8 MiB on aligned to 2 MiB and marked
   for transparent huge pages (one fault a 2 MiB page instead of 512):
   page faults had been a good part of a large frame's PNG encoding
   (Tools/bench/extract.py, its one large frame). */
static void *big_alloc(size_t size) {
    if (size < ((size_t)8 << 20)) return malloc(size);
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void filter_image(const uint8_t *pixels, uint32_t width, uint32_t height, int bpp, int strategy, uint8_t *out) {
    size_t rowbytes = (size_t)width * bpp;
    uint8_t *tmp = strategy < 0 ? malloc(rowbytes) : NULL;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * rowbytes, *prev = y ? row - rowbytes : NULL;
        uint8_t *dst = out + y * (rowbytes + 1);
        if (strategy >= 0) {
            dst[0] = (uint8_t)strategy;
            filter_row(strategy, row, prev, rowbytes, bpp, dst + 1);
            continue;
        }
        unsigned long best = ~0UL;
        for (int f = 0; f < 5; f++) {
            filter_row(f, row, prev, rowbytes, bpp, tmp);
            unsigned long sum = signed_magnitude_sum(tmp, rowbytes);
            if (sum < best) { best = sum; dst[0] = (uint8_t)f; memcpy(dst + 1, tmp, rowbytes); }
        }
    }
    free(tmp);
}

int anim_png_deflate(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                     int level, int search, uint8_t **out, size_t *out_size) {
    return anim_png_deflate_filtered(pixels, width, height, channels, level, search, -1, 0, out, out_size);
}

int anim_png_deflate_filtered(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                              int level, int search, int filter, int zopfli, uint8_t **out,
                              size_t *out_size) {
    size_t rowbytes = (size_t)width * channels, size = (size_t)height * (rowbytes + 1);
    uint8_t *filtered = big_alloc(size), *candidate = NULL;
    struct libdeflate_compressor *fast = NULL, *final = libdeflate_alloc_compressor(level);
    size_t bound = final ? libdeflate_zlib_compress_bound(final, size) : 0;
    uint8_t *z = big_alloc(bound);
    if (!filtered || !final || !z) goto fail;
    /* Palettes: no filter, as libpng; others: adaptive per row. */
    int first = filter >= 0 && filter <= 4 ? filter : channels == 1 ? 0 : -1;
    filter_image(pixels, width, height, channels, first, filtered);
    if (search) {
        /* Every whole-image filter and the adaptive choice too, as APNG
           Assembler tries them; the one a level-6 deflate finds smallest
           wins (level 3 ranks them wrongly: on a 512×512 palette logo it
           chose Paeth, which came out larger than none at level 12; APNG
           sizes: Tools/bench/encode/frames-sizes.sh). None wins on
           dithered frames (from GIFs), Up or Paeth on flat areas and
           smooth ones. */
        candidate = malloc(size);
        fast = libdeflate_alloc_compressor(6);
        if (!candidate || !fast) goto fail;
        size_t best = libdeflate_zlib_compress(fast, filtered, size, z, bound);
        for (int f = -1; f <= 4; f++) {
            if (f == first) continue;
            filter_image(pixels, width, height, channels, f, candidate);
            size_t n = libdeflate_zlib_compress(fast, candidate, size, z, bound);
            if (n && n < best) { best = n; uint8_t *t = filtered; filtered = candidate; candidate = t; }
        }
    }
    size_t n = libdeflate_zlib_compress(final, filtered, size, z, bound);
    if (!n) goto fail;
    if (level >= 10 && n * 32 < size) {
        /* Highly redundant rows (flat areas, text, repeated rows): zlib's
           level 9 is often smaller than libdeflate's near-optimal parse
           there (terminal recordings' palette frames) and fast, so the
           smaller is kept. From 32:1 only: below it zlib seldom won, by
           few bytes, at a cost in time on large frames (the public
           animations through Tools/bench/encode/frames-sizes.sh). */
        uLongf zn = compressBound((uLong)size);
        uint8_t *zz = malloc(zn);
        if (zz && compress2(zz, &zn, filtered, (uLong)size, 9) == Z_OK && zn < n) { memcpy(z, zz, zn); n = zn; }
        free(zz);
    }
    if (zopfli > 0) {
        ZopfliOptions options;
        ZopfliInitOptions(&options);
        options.numiterations = zopfli;
        unsigned char *zz = NULL;
        size_t zn = 0;
        ZopfliCompress(&options, ZOPFLI_FORMAT_ZLIB, filtered, size, &zz, &zn);
        if (zz && zn > 0 && zn < n) { memcpy(z, zz, zn); n = zn; }
        free(zz);
    }
    free(filtered); free(candidate);
    if (fast) libdeflate_free_compressor(fast);
    libdeflate_free_compressor(final);
    *out = z; *out_size = n;
    return 0;
fail:
    free(filtered); free(candidate); free(z);
    if (fast) libdeflate_free_compressor(fast);
    if (final) libdeflate_free_compressor(final);
    return 1;
}
