/* Shared scaffolding for the reference decoders in Tools/bench/c/.
 *
 * Every program is used as   prog FILE RUNS
 * It reads FILE into memory once, then decodes every frame (full canvas,
 * RGBA8, non-premultiplied, composited) RUNS times and prints one JSON line:
 *   {"frames":N,"width":W,"height":H,"runs":R,"medianMs":..,"minMs":..,
 *    "msPerFrame":..,"megapixelsPerSecond":..,"decoder":".."}
 * Times are per full pass (all frames), CLOCK_MONOTONIC; medianMs is the
 * median of the RUNS passes, msPerFrame = medianMs / frames.
 *
 * Debug aid: with BENCH_DUMP=path set, one extra untimed pass writes every
 * composited canvas (W*H*4 bytes RGBA each, frame after frame) to path.
 */
#ifndef BENCH_H
#define BENCH_H

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* called once per composited frame; NULL in timed passes */
typedef void (*frame_cb)(void *ctx, const uint8_t *canvas, int w, int h);

typedef struct {
    int frames;
    int width, height;
} pass_info;

/* implemented by each decoder: decode every frame once; 0 on success */
static int decode_pass(const uint8_t *data, size_t len, pass_info *info, frame_cb cb, void *ctx);
static const char *decoder_name(void);

static volatile uint32_t bench_sink; /* keeps the canvas "used" */

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0) { fclose(f); return NULL; }
    rewind(f);
    uint8_t *buf = malloc(n ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void dump_cb(void *ctx, const uint8_t *canvas, int w, int h) {
    fwrite(canvas, 4, (size_t)w * h, (FILE *)ctx);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE RUNS\n", argv[0]);
        return 2;
    }
    int runs = atoi(argv[2]);
    if (runs < 1) runs = 1;
    size_t len = 0;
    uint8_t *data = read_file(argv[1], &len);
    if (!data) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    pass_info info = {0};
    const char *dump = getenv("BENCH_DUMP");
    if (dump && *dump) {
        FILE *f = fopen(dump, "wb");
        if (!f) { perror(dump); return 1; }
        int rc = decode_pass(data, len, &info, dump_cb, f);
        fclose(f);
        if (rc) { fprintf(stderr, "%s: decode failed: %s\n", argv[0], argv[1]); return 1; }
    }
    double *t = malloc(sizeof(double) * runs);
    for (int r = 0; r < runs; r++) {
        memset(&info, 0, sizeof info);
        double t0 = now_ms();
        int rc = decode_pass(data, len, &info, NULL, NULL);
        t[r] = now_ms() - t0;
        if (rc) {
            fprintf(stderr, "%s: decode failed: %s\n", argv[0], argv[1]);
            free(t);
            free(data);
            return 1;
        }
    }
    qsort(t, runs, sizeof(double), cmp_double);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    double mpix = (double)info.width * info.height * info.frames / 1e6;
    printf("{\"frames\":%d,\"width\":%d,\"height\":%d,\"runs\":%d,\"medianMs\":%.3f,\"minMs\":%.3f,"
           "\"msPerFrame\":%.4f,\"megapixelsPerSecond\":%.2f,\"decoder\":\"%s\"}\n",
           info.frames, info.width, info.height, runs, median, t[0],
           info.frames ? median / info.frames : 0.0, median > 0 ? mpix / (median / 1e3) : 0.0,
           decoder_name());
    free(t);
    free(data);
    return 0;
}

#endif
