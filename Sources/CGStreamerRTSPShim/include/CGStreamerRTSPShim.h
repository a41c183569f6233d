#ifndef CGSTREAMER_RTSP_SHIM_H
#define CGSTREAMER_RTSP_SHIM_H
#include <gst/gst.h>

/// An RTSP server (gst-rtsp-server) that serves, at one mount point, the H.264 access units an
/// appsink of another pipeline receives: one shared media pipeline (appsrc ! rtph264pay) for all
/// clients, fed from the appsink's callbacks, on a GLib main loop thread of its own.
typedef struct CGStreamerRTSPShimServer CGStreamerRTSPShimServer;

/// Starts serving what reaches `appsink` (H.264, byte-stream, one access unit a buffer; or MPEG-TS
/// when `mpeg_ts`) at rtsp://address:service/path. Takes the appsink's callbacks. Returns NULL and sets `*error` (free
/// it with g_free) when the server cannot listen (the port is in use, the address is not this
/// machine's).
CGStreamerRTSPShimServer *CGStreamerRTSPShim_server_start(GstElement *appsink, const char *address,
                                                          const char *service, const char *path,
                                                          gboolean mpeg_ts, char **error);

/// The TCP port the server listens on (the one asked for, or the one chosen for port 0).
int CGStreamerRTSPShim_server_port(CGStreamerRTSPShimServer *server);

/// After end of stream reached the appsink: waits up to `timeout_ms` for each media pipeline to send
/// its end of stream (RTCP BYE) to its clients. Returns FALSE on timeout.
gboolean CGStreamerRTSPShim_server_wait_finished(CGStreamerRTSPShimServer *server, guint timeout_ms);

/// Stops listening, closes every client's connection and frees the server.
void CGStreamerRTSPShim_server_free(CGStreamerRTSPShimServer *server);

#endif
