#ifndef CLAZY_LIBRARIES_H
#define CLAZY_LIBRARIES_H
// The libraries only gstpipe's servers, clients and gray encoder use (gst-rtsp-server, GStreamer's WebRTC and
// SDP libraries, GIO, libx264) are opened on first use, not at start-up: lazy.c defines each of their functions
// that gstpipe calls, and the first call opens the library. Nothing here is for Swift to call.
#endif
