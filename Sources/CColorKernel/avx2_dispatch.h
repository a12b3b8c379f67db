// One way for the kernels to choose their AVX2 loop or their scalar loop,
// at run time, by what the processor has. The AVX2 loops exist on x86-64
// only (ANIM_HAVE_AVX2_PATH); elsewhere the scalar call is all there is.
#ifndef ANIM_AVX2_DISPATCH_H
#define ANIM_AVX2_DISPATCH_H

#if defined(__x86_64__)
#include <immintrin.h>
#define ANIM_HAVE_AVX2_PATH 1
static inline int anim_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#define ANIM_AVX2_OR_SCALAR(avx2_call, scalar_call) \
    do {                                            \
        if (anim_has_avx2())                        \
            avx2_call;                              \
        else                                        \
            scalar_call;                            \
    } while (0)
#else
#define ANIM_AVX2_OR_SCALAR(avx2_call, scalar_call) scalar_call
#endif

#endif
