#ifndef CGSTREAMER_SHIM_H
#define CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#endif
