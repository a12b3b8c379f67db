#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#include <webp/encode.h>
