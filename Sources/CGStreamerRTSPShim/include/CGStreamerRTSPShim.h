#ifndef CGSTREAMER_RTSP_SHIM_H
#define CGSTREAMER_RTSP_SHIM_H
#include <gst/gst.h>

/// An RTSP server (gst-rtsp-server) that serves, at one mount point, the H.264 access units an
/// appsink of another pipeline receives: one shared media pipeline (appsrc ! rtph264pay) for all
/// clients, fed from the appsink's callbacks, on a GLib main loop thread of its own.
typedef struct CGStreamerRTSPShimServer CGStreamerRTSPShimServer;

/// A server that will serve what reaches `appsink` (H.264, byte-stream, one access unit a buffer; or
/// MPEG-TS when `mpeg_ts`) at rtsp://address:service/path, once `CGStreamerRTSPShim_server_listen`
/// succeeds. Until then it can be told who may watch (the `_access` functions below).
CGStreamerRTSPShimServer *CGStreamerRTSPShim_server_new(GstElement *appsink, const char *address,
                                                        const char *service, const char *path,
                                                        gboolean mpeg_ts);

/// Starts listening, and takes the appsink's callbacks. Returns FALSE and sets `*error` (free it with
/// g_free) when the server cannot listen (the port is in use, the address is not this machine's); the
/// server is then still to be freed.
gboolean CGStreamerRTSPShim_server_listen(CGStreamerRTSPShimServer *server, char **error);

/// Lets `user` in with `password` (Digest, or Basic after `_access_use_basic`). Before listening.
void CGStreamerRTSPShim_access_add_user(CGStreamerRTSPShimServer *server, const char *user, const char *password);

/// Lets `user` in by Digest with `hash`, the 32 hex digits of MD5(user:realm:password), as htdigest
/// writes it, for the realm `CGStreamerRTSPShim_access_realm`. Returns FALSE and sets `*error` (g_free)
/// when gst-rtsp-server refuses it. Before listening.
gboolean CGStreamerRTSPShim_access_add_user_hash(CGStreamerRTSPShimServer *server, const char *user,
                                                 const char *hash, char **error);

/// The realm the server names in its challenges ("gstpipe").
const char *CGStreamerRTSPShim_access_realm(void);

/// Asks clients for Basic authentication instead of Digest (the password then crosses the network
/// in clear, unless over TLS). Before listening.
void CGStreamerRTSPShim_access_use_basic(CGStreamerRTSPShimServer *server);

/// Serves over TLS (rtsps://) with the certificate and key of these PEM files, and media interleaved
/// in the TLS connection (RTP over TCP only). Returns FALSE and sets `*error` (g_free) when GLib cannot
/// load them. Before listening.
gboolean CGStreamerRTSPShim_access_use_tls(CGStreamerRTSPShimServer *server, const char *certificate_file,
                                           const char *key_file, char **error);

/// Serves at most `clients` viewers at once: a connection takes a place at its first SETUP (after its
/// credentials were checked) until it closes; a SETUP beyond them is answered 503 Service Unavailable.
/// Connections that never set up a stream take no place. Before listening.
void CGStreamerRTSPShim_access_limit_clients(CGStreamerRTSPShimServer *server, int clients);

/// Called on a client's thread when a client starts playing (`joined` TRUE) and when a client that
/// played closes its connection (`joined` FALSE), with the viewers watching now.
typedef void (*CGStreamerRTSPShimViewerCallback)(void *context, gboolean joined, int viewers);

/// Calls `callback` with `context` as viewers come and go, until the server is freed; `destroy` then
/// releases `context`. Before listening.
void CGStreamerRTSPShim_server_watch_viewers(CGStreamerRTSPShimServer *server,
                                             CGStreamerRTSPShimViewerCallback callback, void *context,
                                             GDestroyNotify destroy);

/// The TCP port the server listens on (the one asked for, or the one chosen for port 0).
int CGStreamerRTSPShim_server_port(CGStreamerRTSPShimServer *server);

/// After end of stream reached the appsink: waits up to `timeout_ms` for each media pipeline to send
/// its end of stream (RTCP BYE) to its clients. Returns FALSE on timeout.
gboolean CGStreamerRTSPShim_server_wait_finished(CGStreamerRTSPShimServer *server, guint timeout_ms);

/// Stops listening, closes every client's connection and frees the server.
void CGStreamerRTSPShim_server_free(CGStreamerRTSPShimServer *server);

#endif
