/* WebP reference decoder for the decode-speed benchmark: libwebp's
 * WebPAnimDecoder (libwebpdemux), MODE_RGBA (non-premultiplied), no threads.
 * WebPAnimDecoder returns the full composited canvas for every frame.
 * The decoder is created and destroyed inside every pass (it parses the
 * container), like a fresh decode of the file.
 */
#include "bench.h"
#include <webp/decode.h>
#include <webp/demux.h>

static const char *decoder_name(void) {
    static char name[32];
    int v = WebPGetDecoderVersion();
    snprintf(name, sizeof name, "libwebp %d.%d.%d", v >> 16, (v >> 8) & 0xff, v & 0xff);
    return name;
}

static int decode_pass(const uint8_t *data, size_t len, pass_info *info, frame_cb cb, void *ctx) {
    WebPAnimDecoderOptions opt;
    if (!WebPAnimDecoderOptionsInit(&opt)) return -1;
    opt.color_mode = MODE_RGBA;
    opt.use_threads = 0;
    WebPData wd = {data, len};
    WebPAnimDecoder *dec = WebPAnimDecoderNew(&wd, &opt);
    if (!dec) return -1;
    WebPAnimInfo ai;
    int rc = -1, frames = 0;
    if (!WebPAnimDecoderGetInfo(dec, &ai)) goto out;
    info->width = (int)ai.canvas_width;
    info->height = (int)ai.canvas_height;
    while (WebPAnimDecoderHasMoreFrames(dec)) {
        uint8_t *buf;
        int ts;
        if (!WebPAnimDecoderGetNext(dec, &buf, &ts)) goto out;
        frames++;
        if (cb) cb(ctx, buf, info->width, info->height);
        bench_sink += buf[0];
    }
    info->frames = frames;
    rc = frames > 0 ? 0 : -1;
out:
    WebPAnimDecoderDelete(dec);
    return rc;
}
