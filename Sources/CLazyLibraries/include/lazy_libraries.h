#ifndef CLAZY_LIBRARIES_H
#define CLAZY_LIBRARIES_H
// The libraries only gstpipe's servers, clients and gray encoder use (gst-rtsp-server, GStreamer's WebRTC and
// SDP libraries, GIO, libx264) are opened on first use, not at start-up: lazy.c defines each of their functions
// that gstpipe calls, and the first call opens the library.

/// NULL when libx264 opens (now, or it was already); else what is missing and what to install. x264grayenc asks
/// before its first call into libx264, so that a machine without it gets the element's error rather than the
/// end of the process (which is what any call does when its library cannot be opened).
const char *CLazyLibraries_x264Missing(void);

#endif
