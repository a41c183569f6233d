#include "server.h"

// Closing connections that send no complete request in time (issue 28, item 6). gst-rtsp-server
// (1.22) never closes a connection itself before it has a session: an idle one, or one whose
// request line or headers never end, would stay open for as long as the peer likes, and enough of
// them keep the server's one thread from answering a real viewer. A connection with a session is
// left to the session's own timeout (60 s without a request, or the stream keeping it alive).

/// Seconds a connection without a session may go without a complete request.
#define IDLE_LIMIT_SECONDS 10
/// How often each connection is looked at.
#define CHECK_INTERVAL_SECONDS 2

typedef struct {
    GstRTSPClient *client;  // owned
    gint64 last_request;    // monotonic time of the connection, then of its last request (server thread)
    GSource *timer;         // unowned: the context holds it until the client closes
} Watch;

static const char *const request_signals[] = {
    "options-request", "describe-request", "setup-request", "play-request", "pause-request",
    "teardown-request", "get-parameter-request", "set-parameter-request", "announce-request",
    "record-request",
};

static void watch_free(gpointer data) {
    Watch *watch = data;
    g_object_unref(watch->client);
    g_free(watch);
}

/// Any request handled (even refused, with 401 or 503) shows the peer speaks RTSP in time.
static void request_seen(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)client;
    (void)context;
    ((Watch *)data)->last_request = g_get_monotonic_time();
}

static gboolean has_session(GstRTSPClient *client) {
    GList *sessions = gst_rtsp_client_session_filter(client, NULL, NULL);
    gboolean any = sessions != NULL;
    g_list_free_full(sessions, g_object_unref);
    return any;
}

static gboolean check(gpointer data) {
    Watch *watch = data;
    gint64 idle = g_get_monotonic_time() - watch->last_request;
    if (idle < IDLE_LIMIT_SECONDS * G_TIME_SPAN_SECOND || has_session(watch->client)) return G_SOURCE_CONTINUE;
    // Our handlers go first (whenever "closed" comes, the watch is gone); returning REMOVE frees it.
    g_signal_handlers_disconnect_by_data(watch->client, watch);
    watch->timer = NULL;
    // Not gst_rtsp_client_close: on a connection still sending, its watch went on reading the closed
    // connection (a GLib-GIO CRITICAL storm, a busy thread). Shutting the socket down makes the
    // watch see the end of the connection and close the client itself, as when the peer leaves.
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(watch->client);
    GSocket *socket = connection ? gst_rtsp_connection_get_read_socket(connection) : NULL;
    if (socket) g_socket_shutdown(socket, TRUE, TRUE, NULL);
    return G_SOURCE_REMOVE;
}

static void client_closed(GstRTSPClient *client, gpointer data) {
    Watch *watch = data;
    g_signal_handlers_disconnect_by_data(client, watch);
    if (watch->timer) {
        GSource *timer = watch->timer;
        watch->timer = NULL;
        g_source_destroy(timer);  // frees the watch
    }
}

void CGStreamerRTSPShim_idle_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client) {
    Watch *watch = g_new0(Watch, 1);
    watch->client = g_object_ref(client);
    watch->last_request = g_get_monotonic_time();
    for (gsize i = 0; i < G_N_ELEMENTS(request_signals); i++) {
        g_signal_connect(client, request_signals[i], G_CALLBACK(request_seen), watch);
    }
    g_signal_connect(client, "closed", G_CALLBACK(client_closed), watch);
    GSource *timer = g_timeout_source_new_seconds(CHECK_INTERVAL_SECONDS);
    g_source_set_callback(timer, check, watch, watch_free);
    watch->timer = timer;
    g_source_attach(timer, s->context);
    g_source_unref(timer);
}
