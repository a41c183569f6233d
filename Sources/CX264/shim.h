#ifndef CX264_SHIM_H
#define CX264_SHIM_H
// x264.h uses the fixed-width integer types without including their header.
#include <stdint.h>
#include <x264.h>

// x264_encoder_open is a macro naming the build's versioned symbol (x264_encoder_open_164), which
// Swift cannot call through.
static inline x264_t *CX264_encoder_open(x264_param_t *param) {
    return x264_encoder_open(param);
}

#endif
