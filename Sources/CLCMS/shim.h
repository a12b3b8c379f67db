#include <lcms2.h>

// lcms2's pixel formats and flags are macros Swift cannot import.
static const cmsUInt32Number animTypeRGBA8 = TYPE_RGBA_8;
static const cmsUInt32Number animTypeRGB8 = TYPE_RGB_8;
static const cmsUInt32Number animTypeRGBA16 = TYPE_RGBA_16;
static const cmsUInt32Number animTransformFlags = cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA;
