/* APNG reference decoder for the decode-speed benchmark.
 *
 * Chunks are parsed here (acTL / fcTL / IDAT / fdAT); each frame is repacked
 * in memory as a plain PNG (signature, IHDR with the frame's size, PLTE and
 * tRNS if present, one IDAT holding the frame's data with the fdAT sequence
 * numbers stripped, IEND; all CRCs recomputed) and decoded with libpng's
 * simplified API (png_image_begin_read_from_memory / png_image_finish_read,
 * PNG_FORMAT_RGBA), then composited onto the RGBA8 canvas with the APNG
 * dispose_op / blend_op rules:
 *   - canvas starts fully transparent;
 *   - APNG_BLEND_OP_SOURCE: the frame replaces the region (decoded directly
 *     into the canvas), APNG_BLEND_OP_OVER: non-premultiplied "over";
 *   - dispose_op is applied after the frame has been shown: NONE keeps,
 *     BACKGROUND clears the region to transparent, PREVIOUS restores what was
 *     there before the frame was drawn (PREVIOUS on the first frame is treated
 *     as BACKGROUND, as the spec says).
 * A default image that is not part of the animation (IDAT before the first
 * fcTL) is skipped and not counted.  A PNG without acTL (or with acTL only
 * after the first IDAT) is a plain PNG: one frame, fcTL/fdAT ignored.
 * Colour-management chunks (gAMA, iCCP, sRGB, cHRM) are not copied, so the
 * samples are returned as stored (16-bit files get a gAMA 1/2.2 chunk in the
 * repacked PNG, because libpng's simplified API would otherwise treat their
 * samples as linear light; it then scales them to 8 bits).
 */
#include "bench.h"
#include <png.h>
#include <zlib.h>

static const char *decoder_name(void) {
    static char name[48];
    snprintf(name, sizeof name, "libpng %s (simplified API)", png_get_libpng_ver(NULL));
    return name;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = (uint8_t)v;
}

typedef struct { const uint8_t *p; uint32_t n; } seg;

typedef struct {
    uint32_t w, h, x, y;
    uint8_t dispose, blend;
} fctl;

typedef struct {
    /* file-level */
    const uint8_t *ihdr;               /* 13 bytes of IHDR data */
    const uint8_t *plte; uint32_t plte_len; /* whole chunk incl. length/type/CRC */
    const uint8_t *trns; uint32_t trns_len;
    uint32_t W, H;
    /* canvas and scratch */
    uint8_t *canvas, *tmp, *saved;
    size_t tmp_cap, saved_cap;
    uint8_t *png; size_t png_cap;      /* repacked PNG */
    seg *segs; size_t nseg, seg_cap;
    int frames;
    frame_cb cb; void *ctx;
} state;

static int grow(void **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    void *p = realloc(*buf, n);
    if (!p) return -1;
    *buf = p;
    *cap = n;
    return 0;
}

static int add_seg(state *s, const uint8_t *p, uint32_t n) {
    if (s->nseg == s->seg_cap) {
        size_t cap = s->seg_cap ? s->seg_cap * 2 : 16;
        seg *ns = realloc(s->segs, cap * sizeof(seg));
        if (!ns) return -1;
        s->segs = ns;
        s->seg_cap = cap;
    }
    s->segs[s->nseg++] = (seg){p, n};
    return 0;
}

/* decode the frame described by fc and the collected segments into dst
 * (row stride in bytes); returns 0 on success */
static int decode_frame(state *s, const fctl *fc, uint8_t *dst, size_t stride) {
    size_t datalen = 0;
    for (size_t i = 0; i < s->nseg; i++) datalen += s->segs[i].n;
    size_t total = 8 + 25 + 16 + s->plte_len + s->trns_len + 12 + datalen + 12;
    if (grow((void **)&s->png, &s->png_cap, total)) return -1;
    uint8_t *o = s->png;
    static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    memcpy(o, sig, 8); o += 8;
    /* IHDR with the frame's size */
    put_be32(o, 13); memcpy(o + 4, "IHDR", 4);
    memcpy(o + 8, s->ihdr, 13);
    put_be32(o + 8, fc->w); put_be32(o + 12, fc->h);
    put_be32(o + 21, (uint32_t)crc32(0, o + 4, 17));
    o += 25;
    if (s->ihdr[8] == 16) {
        /* the simplified API assumes 16-bit data without gAMA is linear and
         * would convert it to sRGB; declare sRGB-ish gamma so that it only
         * scales 16 -> 8 bits */
        static const uint8_t gama[16] = {0, 0, 0, 4, 'g', 'A', 'M', 'A', 0, 0, 0xB1, 0x8F, 0, 0, 0, 0};
        memcpy(o, gama, 16);
        put_be32(o + 12, (uint32_t)crc32(0, o + 4, 8));
        o += 16;
    }
    if (s->plte) { memcpy(o, s->plte, s->plte_len); o += s->plte_len; }
    if (s->trns) { memcpy(o, s->trns, s->trns_len); o += s->trns_len; }
    /* one IDAT with all the frame's data */
    put_be32(o, (uint32_t)datalen); memcpy(o + 4, "IDAT", 4);
    uLong crc = crc32(0, o + 4, 4);
    uint8_t *q = o + 8;
    for (size_t i = 0; i < s->nseg; i++) {
        memcpy(q, s->segs[i].p, s->segs[i].n);
        q += s->segs[i].n;
    }
    crc = crc32(crc, o + 8, (uInt)datalen);
    put_be32(q, (uint32_t)crc);
    o = q + 4;
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    memcpy(o, iend, 12); o += 12;

    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, s->png, (size_t)(o - s->png))) {
        fprintf(stderr, "pngdec: %s\n", img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(&img, NULL, dst, (png_int_32)stride, NULL)) {
        fprintf(stderr, "pngdec: %s\n", img.message);
        png_image_free(&img);
        return -1;
    }
    return 0;
}

/* non-premultiplied "over" of a w*h RGBA block onto the canvas */
static void blend_over(uint8_t *dst, size_t dstride, const uint8_t *src, uint32_t w, uint32_t h) {
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *d = dst + y * dstride;
        const uint8_t *sp = src + (size_t)y * w * 4;
        for (uint32_t x = 0; x < w; x++, d += 4, sp += 4) {
            const uint32_t sa = sp[3];
            if (sa == 255) { memcpy(d, sp, 4); continue; }
            if (sa == 0) continue;
            const uint32_t da = d[3];
            if (da == 0) { memcpy(d, sp, 4); continue; }
            /* out_a = sa + da*(1-sa); out_c = (sc*sa + dc*da*(1-sa)) / out_a */
            const uint32_t u = sa * 255, v = (255 - sa) * da, a = u + v;
            d[0] = (uint8_t)((sp[0] * u + d[0] * v + a / 2) / a);
            d[1] = (uint8_t)((sp[1] * u + d[1] * v + a / 2) / a);
            d[2] = (uint8_t)((sp[2] * u + d[2] * v + a / 2) / a);
            d[3] = (uint8_t)((a + 127) / 255);
        }
    }
}

static int render_frame(state *s, const fctl *fc) {
    const size_t stride = (size_t)s->W * 4;
    uint8_t *region = s->canvas + (size_t)fc->y * stride + (size_t)fc->x * 4;
    const size_t rowbytes = (size_t)fc->w * 4;
    int dispose = fc->dispose;
    if (dispose == 2 && s->frames == 0) dispose = 1;
    if (dispose == 2) { /* remember what is under the frame */
        if (grow((void **)&s->saved, &s->saved_cap, rowbytes * fc->h)) return -1;
        for (uint32_t y = 0; y < fc->h; y++) memcpy(s->saved + y * rowbytes, region + y * stride, rowbytes);
    }
    if (fc->blend == 0 || s->frames == 0) {
        /* SOURCE (or first frame onto the empty canvas): decode straight in */
        if (decode_frame(s, fc, region, stride)) return -1;
    } else {
        if (grow((void **)&s->tmp, &s->tmp_cap, rowbytes * fc->h)) return -1;
        if (decode_frame(s, fc, s->tmp, rowbytes)) return -1;
        blend_over(region, stride, s->tmp, fc->w, fc->h);
    }
    s->frames++;
    if (s->cb) s->cb(s->ctx, s->canvas, (int)s->W, (int)s->H);
    bench_sink += region[0];
    if (dispose == 1) {
        for (uint32_t y = 0; y < fc->h; y++) memset(region + y * stride, 0, rowbytes);
    } else if (dispose == 2) {
        for (uint32_t y = 0; y < fc->h; y++) memcpy(region + y * stride, s->saved + y * rowbytes, rowbytes);
    }
    s->nseg = 0;
    return 0;
}

static int decode_pass(const uint8_t *data, size_t len, pass_info *info, frame_cb cb, void *ctx) {
    static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (len < 8 || memcmp(data, sig, 8) != 0) return -1;
    state s;
    memset(&s, 0, sizeof s);
    s.cb = cb;
    s.ctx = ctx;
    int rc = -1, have_actl = 0, have_fctl = 0, pending = 0, saw_idat = 0;
    fctl fc = {0};
    size_t pos = 8;
    while (pos + 12 <= len) {
        const uint32_t n = be32(data + pos);
        const uint8_t *type = data + pos + 4, *d = data + pos + 8;
        if (n > len - pos - 12) goto out; /* truncated */
        if (!memcmp(type, "IHDR", 4)) {
            if (n != 13) goto out;
            s.ihdr = d;
            s.W = be32(d);
            s.H = be32(d + 4);
            if (!s.W || !s.H || s.W > 1u << 15 || s.H > 1u << 15) goto out;
            s.canvas = calloc((size_t)s.W * s.H, 4);
            if (!s.canvas) goto out;
            info->width = (int)s.W;
            info->height = (int)s.H;
        } else if (!memcmp(type, "PLTE", 4)) {
            s.plte = data + pos; s.plte_len = n + 12;
        } else if (!memcmp(type, "tRNS", 4)) {
            s.trns = data + pos; s.trns_len = n + 12;
        } else if (!memcmp(type, "acTL", 4)) {
            if (have_actl) goto out;      /* repeated acTL: invalid */
            if (!saw_idat) have_actl = 1; /* an acTL after IDAT is ignored */
        } else if (!have_actl && (!memcmp(type, "fcTL", 4) || !memcmp(type, "fdAT", 4))) {
            /* no acTL: a plain PNG, animation chunks are ignored */
        } else if (!memcmp(type, "fcTL", 4)) {
            if (n < 26 || !s.ihdr) goto out;
            if (pending && render_frame(&s, &fc)) goto out;
            fc.w = be32(d + 4); fc.h = be32(d + 8);
            fc.x = be32(d + 12); fc.y = be32(d + 16);
            fc.dispose = d[24]; fc.blend = d[25];
            if (!fc.w || !fc.h || fc.x > s.W || fc.y > s.H || fc.w > s.W - fc.x || fc.h > s.H - fc.y) goto out;
            if (fc.dispose > 2 || fc.blend > 1) goto out;
            have_fctl = 1;
            pending = 1;
            s.nseg = 0;
        } else if (!memcmp(type, "IDAT", 4)) {
            if (!s.ihdr) goto out;
            saw_idat = 1;
            if (!have_actl && !pending) { /* plain PNG: one frame, the whole image */
                fc = (fctl){s.W, s.H, 0, 0, 0, 0};
                pending = 1;
            }
            if (pending && (have_fctl || !have_actl) && add_seg(&s, d, n)) goto out;
            /* IDAT before the first fcTL: hidden default image, skipped */
        } else if (!memcmp(type, "fdAT", 4)) {
            if (n < 4 || !pending || !saw_idat) goto out;
            if (add_seg(&s, d + 4, n - 4)) goto out;
        } else if (!memcmp(type, "IEND", 4)) {
            break;
        }
        pos += 12 + (size_t)n;
    }
    if (pending && s.nseg && render_frame(&s, &fc)) goto out;
    info->frames = s.frames;
    rc = s.frames > 0 ? 0 : -1;
out:
    free(s.canvas); free(s.tmp); free(s.saved); free(s.png); free(s.segs);
    return rc;
}
