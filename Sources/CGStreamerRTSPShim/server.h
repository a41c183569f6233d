#ifndef CGSTREAMER_RTSP_SHIM_SERVER_H
#define CGSTREAMER_RTSP_SHIM_SERVER_H
// The server's parts, shared by shim.c (serving) and access.c (who may watch); not for Swift.
#include "CGStreamerRTSPShim.h"
#include <gst/rtsp-server/rtsp-server.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

struct CGStreamerRTSPShimServer {
    GstRTSPServer *server;
    GstRTSPMediaFactory *factory;
    GMainContext *context;
    GMainLoop *loop;
    GThread *thread;
    GSource *source;
    GstElement *appsink;
    // pthread's, not GLib's: GLib 2.74's GMutex is a futex of its own that ThreadSanitizer cannot see,
    // so it took the data these locks guard for data races.
    pthread_mutex_t lock;
    pthread_cond_t changed;
    GPtrArray *feeds;  // of Feed *
    gboolean ended;    // end of stream reached the appsink
    gboolean mpeg_ts;  // MPEG-TS, not H.264: no key frame to wait for (the client's demuxer finds it)
    GstRTSPAuth *auth;  // owned; NULL while anyone may watch over plain TCP
    GstRTSPToken *token;  // owned: what a let-in client holds (the role the factory allows)
    gboolean has_users;  // users were added: no one else is let in
    int max_clients;   // 0: no limit
    gint clients;      // clients that set up a stream and are still connected (atomic: several threads)
    pthread_mutex_t idle_lock;  // guards each client's idle Watch (idle.c): its threads and the server's share them
    gint64 closing_deadline;  // monotonic time until which server_free waits for clients to close
    GSource *idle_timer;  // owned: looks at the clients every few seconds, on the server's thread
    gint refs;         // the owner's, and one per handler, probe, source or callback that may still run
    gboolean serving;  // under `lock`: the context takes new sources (server_free clears it)
    gint viewers;      // clients that played and are still connected (atomic: several threads)
    gint64 last_key_frame;     // under `lock`: monotonic time a forced key frame was last asked for (0: never)
    gboolean key_frame_due;    // under `lock`: a request is scheduled, which later PLAYs join
    CGStreamerRTSPShimViewerCallback viewer_callback;  // NULL: nobody watches the viewers
    void *viewer_context;
    GDestroyNotify viewer_destroy;  // releases viewer_context as the struct is freed
};

/// Takes a reference to `s`: what a callback holds for as long as it may run.
CGStreamerRTSPShimServer *CGStreamerRTSPShim_server_ref(CGStreamerRTSPShimServer *s);

/// Drops a reference to `s` (a GDestroyNotify): the last frees it, with the server, factory and appsink.
void CGStreamerRTSPShim_server_unref(gpointer s);

/// g_signal_connect, the handler holding a reference to `s` until it is disconnected and no emission
/// runs it any more (GLib keeps a handler's closure alive through an emission in progress).
gulong CGStreamerRTSPShim_connect(gpointer instance, const char *signal, GCallback callback,
                                  CGStreamerRTSPShimServer *s);

/// Called by shim.c on the server's thread for each new connection: counts it once it sets up a
/// stream (authenticated), and refuses that SETUP when the limit is reached.
void CGStreamerRTSPShim_access_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client);

/// Called by shim.c on the server's thread for each new connection: closes it once it goes
/// IDLE_LIMIT_SECONDS without a viewer's request (DESCRIBE, SETUP, PLAY) while it has no session (idle.c).
void CGStreamerRTSPShim_idle_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client);

/// Starts and stops the timer that looks at the clients (idle.c), on the server's context.
void CGStreamerRTSPShim_idle_start(CGStreamerRTSPShimServer *s);
void CGStreamerRTSPShim_idle_stop(CGStreamerRTSPShimServer *s);

/// Ends `client`'s connection from any thread, by shutting its socket down: the client's own thread
/// then sees the end of the connection and closes the client (idle.c).
void CGStreamerRTSPShim_idle_shut_down(CGStreamerRTSPShimServer *s, GstRTSPClient *client);

/// Called by shim.c on the server's thread for each new connection: counts it as a viewer once it
/// plays, until it closes, and tells the viewer callback (viewers.c).
void CGStreamerRTSPShim_viewers_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client);

/// Serves each client from a thread of its own, at the lowest priority (threads.c).
void CGStreamerRTSPShim_threads_install(CGStreamerRTSPShimServer *s);
/// Gives the calling client thread back the priority it had (threads.c): called as its client plays.
void CGStreamerRTSPShim_threads_client_plays(void);

/// Called by shim.c before listening: hands the auth (if any) to the server.
void CGStreamerRTSPShim_access_install(CGStreamerRTSPShimServer *s);

/// False, with `*error` (g_free) saying why, when a TLS handshake with `certificate` fails: its key
/// is not the certificate's (tls_check.c).
gboolean CGStreamerRTSPShim_tls_pair_works(GTlsCertificate *certificate, char **error);

/// Frees what access.c made.
void CGStreamerRTSPShim_access_free(CGStreamerRTSPShimServer *s);

#endif
