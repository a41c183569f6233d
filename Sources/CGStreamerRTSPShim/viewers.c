// Who watches: a client counts as a viewer from its first PLAY until its connection closes, for the
// run's metrics and events (a connection that only asks DESCRIBE, or is refused, is no viewer).
#include "server.h"

// Set on a client once it counted as a viewer, so a PLAY after PAUSE counts it once.
static const char *const viewer_key = "gstpipe-viewer";

static void tell(CGStreamerRTSPShimServer *s, gboolean joined, int viewers) {
    if (s->viewer_callback) s->viewer_callback(s->viewer_context, joined, viewers);
}

static void played(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)context;
    CGStreamerRTSPShimServer *s = data;
    if (g_object_get_data(G_OBJECT(client), viewer_key)) return;
    g_object_set_data(G_OBJECT(client), viewer_key, GINT_TO_POINTER(1));
    tell(s, TRUE, g_atomic_int_add(&s->viewers, 1) + 1);
}

static void closed(GstRTSPClient *client, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    if (!g_object_get_data(G_OBJECT(client), viewer_key)) return;
    g_object_set_data(G_OBJECT(client), viewer_key, NULL);
    tell(s, FALSE, g_atomic_int_add(&s->viewers, -1) - 1);
}

void CGStreamerRTSPShim_viewers_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client) {
    if (!s->viewer_callback) return;
    CGStreamerRTSPShim_connect(client, "play-request", G_CALLBACK(played), s);
    CGStreamerRTSPShim_connect(client, "closed", G_CALLBACK(closed), s);
}

void CGStreamerRTSPShim_server_watch_viewers(CGStreamerRTSPShimServer *s, CGStreamerRTSPShimViewerCallback callback,
                                             void *context, GDestroyNotify destroy) {
    s->viewer_callback = callback;
    s->viewer_context = context;
    s->viewer_destroy = destroy;
}
