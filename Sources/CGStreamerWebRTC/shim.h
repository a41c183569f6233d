#ifndef CGSTREAMER_WEBRTC_H
#define CGSTREAMER_WEBRTC_H
// GStreamer's WebRTC and SDP libraries, for the GStreamerWebRTC module: session descriptions and the
// SDP messages inside them. GStreamer 1.22 marks the WebRTC library "unstable API" and warns on every
// include unless its users say they know; CI fails on any warning.
#define GST_USE_UNSTABLE_API
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#endif
