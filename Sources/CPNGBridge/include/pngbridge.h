#ifndef ANIM_PNGBRIDGE_H
#define ANIM_PNGBRIDGE_H
#include <stddef.h>
#include <stdint.h>

/* A small C target that owns libpng's setjmp, so that libpng's longjmp never
   crosses Swift frames. Swift calls only these functions. */

/* One piece of compressed image data: the chunk's type+data region (what its
   CRC covers), the stored CRC, and where the zlib bytes start inside it. */
typedef struct {
    const uint8_t *chunk;     /* points at the 4-byte chunk type */
    uint32_t chunk_length;    /* type + data length, i.e. 4 + data length */
    uint32_t data_offset;     /* 4 for IDAT, 8 for fdAT (type + sequence) */
    uint32_t stored_crc;
} anim_png_segment;

typedef struct {
    uint32_t rows_done;       /* complete rows written to out (non-interlaced) */
    int error_code;           /* 0 ok, 1 libpng error, 2 CRC mismatch, 3 size mismatch */
    char message[200];
} anim_png_result;

/* Decodes a PNG whose header (signature, IHDR, PLTE, tRNS; valid CRCs) is
   `header`, and whose IDAT stream is the concatenation of `segments`, into
   RGBA8 non-premultiplied rows of `width`*4 bytes at `out` (stride bytes
   apart). No gamma or colour conversion is applied: 16-bit samples are scaled
   to 8 bits with rounding, grey becomes RGB, palettes and tRNS expand. */
int anim_png_decode(const uint8_t *header, size_t header_size,
                    const anim_png_segment *segments, size_t segment_count,
                    uint32_t width, uint32_t height,
                    uint8_t *out, size_t stride, anim_png_result *result);

/* The same rows handed one at a time, top to bottom, to `each_row` (with
   `context`) instead of stored: a non-interlaced image only (error 4 for an
   interlaced one, nothing handed over). */
typedef void (*anim_png_row_fn)(void *context, const uint8_t *row);
int anim_png_decode_rows(const uint8_t *header, size_t header_size,
                         const anim_png_segment *segments, size_t segment_count,
                         uint32_t width, uint32_t height, anim_png_row_fn each_row, void *context,
                         anim_png_result *result);

/* The same for the common image (8 bits a sample or fewer, not interlaced,
   IHDR/PLTE/tRNS as the specification orders them) without libpng:
   libdeflate inflates, the rows are unfiltered here. 0 when every row was
   written; 1 (nothing written) when the image or its data needs libpng,
   whose answer then counts: call anim_png_decode. */
int anim_png_decode_fast(const uint8_t *header, size_t header_size,
                         const anim_png_segment *segments, size_t segment_count,
                         uint32_t width, uint32_t height, uint8_t *out, size_t stride);

/* The zlib stream of a PNG image's data (IDAT): rows filtered (palettes:
   none; else per-row adaptive; with `search` the best of every whole-image
   filter and the adaptive choice by a level-6 deflate) and deflated by libdeflate at
   `level` (1-12; from 10 also zlib 9 on redundant rows, the smaller kept).
   malloc'd; free with anim_png_free. */
int anim_png_deflate(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                     int level, int search, uint8_t **out, size_t *out_size);
/* The same with every row filtered by `filter` (0-4; -1: chosen per row),
   for speed: the per-row choice runs all five filters on every row; and
   with `zopfli` > 0, the chosen rows also deflated by zopfli with that
   many iterations, the smaller stream kept. */
int anim_png_deflate_filtered(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                              int level, int search, int filter, int zopfli, uint8_t **out,
                              size_t *out_size);
void anim_png_free(void *p);

/* zlib's CRC-32, for chunk checks in Swift. */
uint32_t anim_crc32(uint32_t crc, const uint8_t *data, size_t size);

#endif
