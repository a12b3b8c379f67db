/* GIF reference decoder for the decode-speed benchmark: giflib 5.2, record by
 * record (DGifGetRecordType / DGifGetImageDesc / DGifGetLine), every image
 * composited onto an RGBA8 canvas and counted as a frame.
 *
 * Compositing rules (as browsers do):
 *   - canvas starts fully transparent (0,0,0,0); the logical screen background
 *     colour is ignored;
 *   - pixels with the transparent index (from the Graphic Control Extension)
 *     leave the canvas untouched; indices outside the colour table likewise;
 *   - image rectangles are clipped to the logical screen;
 *   - disposal of the previous image is applied before the next one is drawn:
 *     0/1 keep, 2 clear the rectangle to transparent, 3 restore what was
 *     under the rectangle before it was drawn.
 */
#include "bench.h"
#include <gif_lib.h>

static const char *decoder_name(void) {
    static char name[32];
    snprintf(name, sizeof name, "giflib %d.%d.%d", GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE);
    return name;
}

typedef struct {
    const uint8_t *p;
    size_t len, pos;
} mem_src;

static int mem_read(GifFileType *gif, GifByteType *buf, int n) {
    mem_src *m = gif->UserData;
    size_t avail = m->len - m->pos;
    if ((size_t)n > avail) n = (int)avail;
    memcpy(buf, m->p + m->pos, (size_t)n);
    m->pos += (size_t)n;
    return n;
}

typedef struct { int x0, y0, x1, y1; } rect; /* clipped, half-open */

static int decode_pass(const uint8_t *data, size_t len, pass_info *info, frame_cb cb, void *ctx) {
    mem_src src = {data, len, 0};
    int err = 0, rc = -1;
    GifFileType *gif = DGifOpen(&src, mem_read, &err);
    if (!gif) return -1;
    const int W = gif->SWidth, H = gif->SHeight;
    info->width = W;
    info->height = H;
    if (W <= 0 || H <= 0) { DGifCloseFile(gif, &err); return -1; }

    uint32_t *canvas = calloc((size_t)W * H, 4);
    uint32_t *saved = NULL; /* for disposal 3, rectangle-sized */
    GifPixelType *line = malloc((size_t)(W > 0 ? W : 1));
    size_t line_cap = (size_t)W;
    if (!canvas || !line) goto out;

    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    int prev_disposal = DISPOSAL_UNSPECIFIED;
    rect prev = {0, 0, 0, 0};
    uint32_t pal[256];
    int frames = 0;

    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) goto out;
        if (type == TERMINATE_RECORD_TYPE) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *ext;
            if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) goto out;
            if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4)
                DGifExtensionToGCB(ext[0], ext + 1, &gcb);
            while (ext) {
                if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) goto out;
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;

        if (DGifGetImageDesc(gif) == GIF_ERROR) goto out;
        const GifImageDesc *d = &gif->Image;
        const int fw = d->Width, fh = d->Height, fx = d->Left, fy = d->Top;
        if (fw <= 0 || fh <= 0) goto out;
        if ((size_t)fw > line_cap) {
            GifPixelType *nl = realloc(line, (size_t)fw);
            if (!nl) goto out;
            line = nl;
            line_cap = (size_t)fw;
        }

        /* dispose the previous frame */
        if (prev_disposal == DISPOSE_BACKGROUND) {
            for (int y = prev.y0; y < prev.y1; y++)
                memset(canvas + (size_t)y * W + prev.x0, 0, (size_t)(prev.x1 - prev.x0) * 4);
        } else if (prev_disposal == DISPOSE_PREVIOUS && saved) {
            int rw = prev.x1 - prev.x0;
            for (int y = prev.y0; y < prev.y1; y++)
                memcpy(canvas + (size_t)y * W + prev.x0, saved + (size_t)(y - prev.y0) * rw, (size_t)rw * 4);
        }

        rect r = {fx < 0 ? 0 : fx, fy < 0 ? 0 : fy, fx + fw > W ? W : fx + fw, fy + fh > H ? H : fy + fh};
        if (r.x1 < r.x0) r.x1 = r.x0;
        if (r.y1 < r.y0) r.y1 = r.y0;
        const int rw = r.x1 - r.x0;

        if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
            free(saved);
            saved = malloc((size_t)rw * (r.y1 - r.y0) * 4 + 4);
            if (!saved) goto out;
            for (int y = r.y0; y < r.y1; y++)
                memcpy(saved + (size_t)(y - r.y0) * rw, canvas + (size_t)y * W + r.x0, (size_t)rw * 4);
        }

        /* palette -> RGBA lookup (little-endian byte order R,G,B,A in memory) */
        const ColorMapObject *cm = d->ColorMap ? d->ColorMap : gif->SColorMap;
        int ncolors = cm ? cm->ColorCount : 0;
        if (ncolors > 256) ncolors = 256;
        uint8_t valid[256];
        memset(valid, 0, sizeof valid);
        for (int i = 0; i < ncolors; i++) {
            const GifColorType c = cm->Colors[i];
            pal[i] = (uint32_t)c.Red | (uint32_t)c.Green << 8 | (uint32_t)c.Blue << 16 | 0xFF000000u;
            valid[i] = 1;
        }
        if (gcb.TransparentColor >= 0 && gcb.TransparentColor < 256) valid[gcb.TransparentColor] = 0;

        /* row order: interlaced images deliver rows in 4 passes */
        static const int istart[4] = {0, 4, 2, 1}, istep[4] = {8, 8, 4, 2};
        const int npass = d->Interlace ? 4 : 1;
        for (int p = 0; p < npass; p++) {
            const int y0 = d->Interlace ? istart[p] : 0, step = d->Interlace ? istep[p] : 1;
            for (int yy = y0; yy < fh; yy += step) {
                if (DGifGetLine(gif, line, fw) == GIF_ERROR) goto out;
                const int y = fy + yy;
                if (y < r.y0 || y >= r.y1) continue;
                uint32_t *dst = canvas + (size_t)y * W + r.x0;
                const GifPixelType *s = line + (r.x0 - fx);
                for (int x = 0; x < rw; x++) {
                    const GifPixelType v = s[x];
                    if (valid[v]) dst[x] = pal[v];
                }
            }
        }

        frames++;
        if (cb) cb(ctx, (const uint8_t *)canvas, W, H);
        bench_sink += canvas[(size_t)(r.y0 % H) * W];
        prev_disposal = gcb.DisposalMode;
        prev = r;
        gcb = (GraphicsControlBlock){DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    }
    info->frames = frames;
    rc = frames > 0 ? 0 : -1;
out:
    DGifCloseFile(gif, &err);
    free(canvas);
    free(saved);
    free(line);
    return rc;
}
