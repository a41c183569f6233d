#include "server.h"

// Closing connections that do not become viewers in time. gst-rtsp-server (1.22)
// never closes a connection itself before it has a session: an idle one, or one whose request line
// or headers never end, would stay open for as long as the peer likes. A connection with a session is
// left to the session's own timeout (60 s without a request, or the stream keeping it alive).
//
// Each client is served on a thread of gst-rtsp-server's pool, its request signals emitted there,
// while the check runs on the server's own thread: the state they share (a Watch, one per client,
// owned by the client object) is read and written under `idle_lock` only. One timer for the whole
// server walks the clients (gst_rtsp_server_client_filter holds a reference to each while it looks),
// so no per-client source has to be destroyed from one thread while another dispatches it.

/// Seconds a connection without a session may go without a request that shows it is a viewer.
#define IDLE_LIMIT_SECONDS 10
/// How often the connections are looked at.
#define CHECK_INTERVAL_SECONDS 2

static const char *const watch_key = "gstpipe-idle-watch";

typedef struct {
    gint64 last_request;  // monotonic time of the connection, then of its last viewer's request
    gboolean closed;      // "closed" came: its connection is no longer ours to shut down
    gboolean viewer;      // it made a request that passed authentication
} Watch;

// Requests that reach these signals passed gst-rtsp-server's authentication (DESCRIBE, SETUP and PLAY
// find the media, which checks the client's token) and are a viewer's. Not OPTIONS nor GET_PARAMETER:
// gst-rtsp-server answers them 200 without credentials, so an unauthenticated peer repeating them would
// stay connected forever, while its refused DESCRIBEs (401) never did.
static const char *const request_signals[] = {
    "describe-request", "setup-request", "play-request", "pause-request",
};

static void request_seen(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)context;
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->idle_lock);
    Watch *watch = g_object_get_data(G_OBJECT(client), watch_key);
    if (watch) {
        watch->last_request = g_get_monotonic_time();
        watch->viewer = TRUE;
    }
    pthread_mutex_unlock(&s->idle_lock);
}

/// gst-rtsp-server 1.22 keeps the socket of a connection whose TLS handshake failed (a client speaking
/// plain RTSP to an rtsps:// port) open after the client is gone: the peer waits forever for an answer
/// and each such connection keeps a descriptor. So a connection that never made a viewer's request is
/// ended here as its client closes, on the client's thread (which no longer reads it). Not the half of
/// an RTSP-over-HTTP tunnel, whose socket lives on in the other half.
static void end_socket(GstRTSPClient *client) {
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(client);
    if (!connection || gst_rtsp_connection_get_tunnelid(connection)) return;
    GSocket *socket = gst_rtsp_connection_get_read_socket(connection);
    if (!socket || g_socket_is_closed(socket)) return;
    g_socket_shutdown(socket, TRUE, TRUE, NULL);
    g_socket_close(socket, NULL);
}

static void client_closed(GstRTSPClient *client, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->idle_lock);
    Watch *watch = g_object_get_data(G_OBJECT(client), watch_key);
    gboolean viewer = watch && watch->viewer;
    if (watch) watch->closed = TRUE;
    if (!viewer) end_socket(client);
    pthread_mutex_unlock(&s->idle_lock);
}

static gboolean has_session(GstRTSPClient *client) {
    GList *sessions = gst_rtsp_client_session_filter(client, NULL, NULL);
    gboolean any = sessions != NULL;
    g_list_free_full(sessions, g_object_unref);
    return any;
}

/// Ends `client`'s connection from any thread. Not gst_rtsp_client_close: it closes the socket under
/// the client's thread, whose watch then goes on reading a closed connection (a GLib-GIO CRITICAL
/// storm, a busy thread). Shutting the socket down makes the client's own thread see the end of the
/// connection and close the client itself, as when the peer leaves. Under `idle_lock`, which
/// client_closed takes too: a closed client's socket is not touched.
void CGStreamerRTSPShim_idle_shut_down(CGStreamerRTSPShimServer *s, GstRTSPClient *client) {
    pthread_mutex_lock(&s->idle_lock);
    Watch *watch = g_object_get_data(G_OBJECT(client), watch_key);
    if (!watch || !watch->closed) {
        GstRTSPConnection *connection = gst_rtsp_client_get_connection(client);
        GSocket *socket = connection ? gst_rtsp_connection_get_read_socket(connection) : NULL;
        if (socket) g_socket_shutdown(socket, TRUE, TRUE, NULL);
    }
    pthread_mutex_unlock(&s->idle_lock);
}

static GstRTSPFilterResult check_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server;
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->idle_lock);
    Watch *watch = g_object_get_data(G_OBJECT(client), watch_key);
    gboolean late = watch && !watch->closed
                    && g_get_monotonic_time() - watch->last_request >= IDLE_LIMIT_SECONDS * G_TIME_SPAN_SECOND;
    pthread_mutex_unlock(&s->idle_lock);
    if (late && !has_session(client)) CGStreamerRTSPShim_idle_shut_down(s, client);
    return GST_RTSP_FILTER_KEEP;
}

static gboolean check(gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    gst_rtsp_server_client_filter(s->server, check_client, s);
    return G_SOURCE_CONTINUE;
}

void CGStreamerRTSPShim_idle_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client) {
    Watch *watch = g_new0(Watch, 1);
    watch->last_request = g_get_monotonic_time();
    // Freed with the client object, which outlives each of its signals and the filter's look at it.
    g_object_set_data_full(G_OBJECT(client), watch_key, watch, g_free);
    for (gsize i = 0; i < G_N_ELEMENTS(request_signals); i++) {
        CGStreamerRTSPShim_connect(client, request_signals[i], G_CALLBACK(request_seen), s);
    }
    CGStreamerRTSPShim_connect(client, "closed", G_CALLBACK(client_closed), s);
}

void CGStreamerRTSPShim_idle_start(CGStreamerRTSPShimServer *s) {
    s->idle_timer = g_timeout_source_new_seconds(CHECK_INTERVAL_SECONDS);
    g_source_set_callback(s->idle_timer, check, s, NULL);
    g_source_attach(s->idle_timer, s->context);
}

void CGStreamerRTSPShim_idle_stop(CGStreamerRTSPShimServer *s) {
    if (!s->idle_timer) return;
    g_source_destroy(s->idle_timer);
    g_source_unref(s->idle_timer);
    s->idle_timer = NULL;
}
