#ifndef CGSTREAMER_PLAY_H
#define CGSTREAMER_PLAY_H
// GStreamer's high-level player library (GstPlay, gst-plugins-bad's libgstplay-1.0), for the
// GStreamerPlay module. Kept out of CGStreamer so the core links no more than it uses.
#include <gst/gst.h>
#include <gst/play/play.h>
#endif
