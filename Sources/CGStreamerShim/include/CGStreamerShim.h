// CGStreamerShim: the few things Swift cannot call directly, in C: GObject and GStreamer macros and
// casts, variadic calls, GType registration for elements whose behaviour lives in Swift. One header
// per concern, each beside its .c file's concern; Swift imports them all through this one.
#ifndef CGSTREAMER_SHIM_H_PUBLIC
#define CGSTREAMER_SHIM_H_PUBLIC

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include "CGStreamerShimTypes.h"
#include "CGStreamerShimObjects.h"
#include "CGStreamerShimElements.h"
#include "CGStreamerShimEvents.h"
#include "CGStreamerShimBuffers.h"
#include "CGStreamerShimVideo.h"
#include "CGStreamerShimSignals.h"
#include "CGStreamerShimSwiftElement.h"
#include "CGStreamerShimThreads.h"

#endif
