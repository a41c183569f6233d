#include "server.h"
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <gst/rtsp-server/rtsp-server.h>

// What a media pipeline runs: the appsrc fed below, and a payloader the server finds as pay0.
// is-live with do-timestamp: each buffer gets the media pipeline's running time as it is pushed
// (see feed_needs_data), so a media made for a late client starts at its own zero. Never blocking,
// dropping the oldest when full: a stalled media pipeline must not hold back the producer or the
// other clients.
static const char *const launch =
    "( appsrc name=gstpipe-rtsp-source is-live=true format=time do-timestamp=true block=false "
    "leaky-type=downstream max-buffers=120 ! rtph264pay name=pay0 pt=96 config-interval=-1 "
    "aggregate-mode=zero-latency )";
// The same for MPEG-TS (a file input's video and audio together), one RTP stream.
static const char *const launch_mpeg_ts =
    "( appsrc name=gstpipe-rtsp-source is-live=true format=time do-timestamp=true block=false "
    "leaky-type=downstream max-buffers=120 ! rtpmp2tpay name=pay0 pt=33 )";

/// One media pipeline (one per shared mount while it has clients).
typedef struct {
    GstRTSPMedia *media;  // owned, its "unprepared" handler disconnected when the feed goes
    gpointer server;      // the handlers' data
    gulong probe;         // on the payloader's source pad
    GstElement *appsrc;   // owned
    GstElement *payloader;  // owned
    GstCaps *caps;        // owned: the caps last set on the appsrc
    gboolean waiting_for_key;
    gboolean started;     // the appsrc has asked for data: it is PLAYING with its base time
    gboolean finished;    // end of stream left the payloader
} Feed;


static void feed_free(gpointer data) {
    Feed *feed = data;
    g_signal_handlers_disconnect_by_data(feed->media, feed->server);
    g_signal_handlers_disconnect_by_data(feed->appsrc, feed->server);
    g_object_unref(feed->media);
    GstPad *pad = gst_element_get_static_pad(feed->payloader, "src");
    gst_pad_remove_probe(pad, feed->probe);
    gst_object_unref(pad);
    gst_object_unref(feed->appsrc);
    gst_object_unref(feed->payloader);
    if (feed->caps) gst_caps_unref(feed->caps);
    g_free(feed);
}

/// Forced key frames are at most this often: each costs several times a frame's bits, and a client
/// repeating PLAY (a few bytes each) could otherwise make the encoder send nothing else.
#define KEY_FRAME_INTERVAL_US G_TIME_SPAN_SECOND

/// Asks the encoder for a key frame, so a client that just started does not wait for the next one.
static gboolean request_key_frame(gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->lock);
    s->key_frame_due = FALSE;
    s->last_key_frame = g_get_monotonic_time();
    pthread_mutex_unlock(&s->lock);
    gst_element_send_event(s->appsink, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
    return G_SOURCE_REMOVE;
}

static GstPadProbeReturn payloader_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) != GST_EVENT_EOS) return GST_PAD_PROBE_OK;
    GstObject *payloader = gst_pad_get_parent(pad);
    pthread_mutex_lock(&s->lock);
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        if ((GstObject *)feed->payloader == payloader) feed->finished = TRUE;
    }
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (payloader) gst_object_unref(payloader);
    return GST_PAD_PROBE_OK;
}

/// The appsrc stamps each buffer as it is pushed with the clock's time less its base time. Going to
/// PLAYING, the media pipeline gives every element its clock first and each its base time only as that
/// element's turn comes, several milliseconds later on a loaded machine: a buffer pushed in between was
/// stamped with the whole clock time (hours of uptime), and the RTP sink, which keeps to the clock,
/// waited for that time with every later buffer behind it. Every client of the media then received
/// nothing, while the rest of the server ran on. So nothing is pushed until the appsrc first asks for
/// data: its streaming thread runs only once the appsrc is PLAYING, after its base time was set. The
/// client's key frame is asked for then.
static void feed_needs_data(GstAppSrc *appsrc, guint length, gpointer data) {
    (void)length;
    CGStreamerRTSPShimServer *s = data;
    gboolean first = FALSE;
    pthread_mutex_lock(&s->lock);
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        if ((GstAppSrc *)feed->appsrc != appsrc || feed->started) continue;
        feed->started = TRUE;
        first = feed->waiting_for_key && s->serving;
    }
    pthread_mutex_unlock(&s->lock);
    if (first) request_key_frame(s);
}

static void media_unprepared(GstRTSPMedia *media, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->lock);
    for (guint i = s->feeds->len; i > 0; i--) {
        Feed *feed = g_ptr_array_index(s->feeds, i - 1);
        if (feed->media == media) g_ptr_array_remove_index(s->feeds, i - 1);
    }
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static void media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
    (void)factory;
    CGStreamerRTSPShimServer *s = data;
    GstElement *bin = gst_rtsp_media_get_element(media);
    GstElement *appsrc = gst_bin_get_by_name_recurse_up(GST_BIN(bin), "gstpipe-rtsp-source");
    GstElement *payloader = gst_bin_get_by_name_recurse_up(GST_BIN(bin), "pay0");
    gst_object_unref(bin);
    if (!appsrc || !payloader) {
        if (appsrc) gst_object_unref(appsrc);
        if (payloader) gst_object_unref(payloader);
        return;
    }
    Feed *feed = g_new0(Feed, 1);
    GstPad *pad = gst_element_get_static_pad(payloader, "src");
    feed->probe = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, payloader_event,
                                    CGStreamerRTSPShim_server_ref(s), CGStreamerRTSPShim_server_unref);
    gst_object_unref(pad);
    CGStreamerRTSPShim_connect(media, "unprepared", G_CALLBACK(media_unprepared), s);
    CGStreamerRTSPShim_connect(appsrc, "need-data", G_CALLBACK(feed_needs_data), s);
    feed->media = g_object_ref(media);
    feed->server = s;
    feed->appsrc = appsrc;
    feed->payloader = payloader;
    feed->waiting_for_key = !s->mpeg_ts;
    pthread_mutex_lock(&s->lock);
    if (!s->serving) {
        // server_free has begun: a feed added now would keep the media (and `s`) forever.
        pthread_mutex_unlock(&s->lock);
        feed_free(feed);
        return;
    }
    g_ptr_array_add(s->feeds, feed);
    gboolean ended = s->ended;
    pthread_mutex_unlock(&s->lock);
    if (ended) gst_app_src_end_of_stream(GST_APP_SRC(appsrc));
}

/// A client that starts playing a shared media already running asks for a key frame too, a moment
/// later: by then its transport is set up and the key frame reaches it.
static gboolean play_request(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)client;
    (void)context;
    CGStreamerRTSPShimServer *s = data;
    CGStreamerRTSPShim_threads_client_plays();
    // Not on a context server_free is ending (`serving` cleared under the lock first).
    // One request at a time, a second after the last at the soonest: PLAYs meanwhile join the one
    // scheduled, and every client still gets its key frame within a second of playing.
    pthread_mutex_lock(&s->lock);
    if (s->serving && !s->key_frame_due) {
        s->key_frame_due = TRUE;
        gint64 wait = s->last_key_frame + KEY_FRAME_INTERVAL_US - g_get_monotonic_time();
        guint delay = wait > 100 * 1000 ? (guint)(wait / 1000) : 100;
        GSource *timeout = g_timeout_source_new(delay);
        g_source_set_callback(timeout, request_key_frame, CGStreamerRTSPShim_server_ref(s),
                              CGStreamerRTSPShim_server_unref);
        g_source_attach(timeout, s->context);
        g_source_unref(timeout);
    }
    pthread_mutex_unlock(&s->lock);
    return TRUE;
}

static void client_connected(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server;
    CGStreamerRTSPShim_connect(client, "play-request", G_CALLBACK(play_request), data);
    CGStreamerRTSPShim_access_client_connected(data, client);
    CGStreamerRTSPShim_idle_client_connected(data, client);
    CGStreamerRTSPShim_viewers_client_connected(data, client);
}

static GstFlowReturn new_sample(GstAppSink *sink, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    GstSample *sample = gst_app_sink_pull_sample(sink);
    if (!sample) return GST_FLOW_EOS;
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstCaps *caps = gst_sample_get_caps(sample);
    gboolean key = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
    pthread_mutex_lock(&s->lock);
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        if (!feed->started || (feed->waiting_for_key && !key)) continue;
        feed->waiting_for_key = FALSE;
        if (caps && (!feed->caps || !gst_caps_is_equal(caps, feed->caps))) {
            gst_caps_replace(&feed->caps, caps);
            gst_app_src_set_caps(GST_APP_SRC(feed->appsrc), caps);
        }
        // A new buffer sharing the access unit's memory (no copy of the data), its time left to
        // the appsrc (do-timestamp).
        GstBuffer *copy = gst_buffer_copy(buffer);
        GST_BUFFER_PTS(copy) = GST_CLOCK_TIME_NONE;
        GST_BUFFER_DTS(copy) = GST_CLOCK_TIME_NONE;
        gst_app_src_push_buffer(GST_APP_SRC(feed->appsrc), copy);
    }
    pthread_mutex_unlock(&s->lock);
    gst_sample_unref(sample);
    return GST_FLOW_OK;
}

static void appsink_eos(GstAppSink *sink, gpointer data) {
    (void)sink;
    CGStreamerRTSPShimServer *s = data;
    pthread_mutex_lock(&s->lock);
    s->ended = TRUE;
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        gst_app_src_end_of_stream(GST_APP_SRC(feed->appsrc));
    }
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static gpointer run_loop(gpointer data) {
    GMainLoop *loop = data;
    g_main_context_push_thread_default(g_main_loop_get_context(loop));
    g_main_loop_run(loop);
    g_main_context_pop_thread_default(g_main_loop_get_context(loop));
    return NULL;
}

CGStreamerRTSPShimServer *CGStreamerRTSPShim_server_new(GstElement *appsink, const char *address,
                                                        const char *service, const char *path,
                                                        gboolean mpeg_ts) {
    CGStreamerRTSPShimServer *s = g_new0(CGStreamerRTSPShimServer, 1);
    s->refs = 1;
    s->mpeg_ts = mpeg_ts;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->idle_lock, NULL);
    // Timed waits count on the monotonic clock, as GLib's did: a change of the wall clock moves no deadline.
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&s->changed, &monotonic);
    pthread_condattr_destroy(&monotonic);
    s->feeds = g_ptr_array_new_with_free_func(feed_free);
    s->appsink = gst_object_ref(appsink);
    s->server = gst_rtsp_server_new();
    gst_rtsp_server_set_address(s->server, address);
    gst_rtsp_server_set_service(s->server, service);
    // The default backlog (5) made hundreds of connections at once wait on each other's SYN retries:
    // 500 took ~45 s to be accepted. The kernel caps this at net.core.somaxconn.
    gst_rtsp_server_set_backlog(s->server, 1024);
    CGStreamerRTSPShim_threads_install(s);

    GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
    s->factory = g_object_ref(factory);
    gst_rtsp_media_factory_set_launch(factory, mpeg_ts ? launch_mpeg_ts : launch);
    gst_rtsp_media_factory_set_shared(factory, TRUE);
    // A client's thread may be inside media_configure (a DESCRIBE) as server_free disconnects it: the
    // handler's reference keeps `s`, its appsink, feeds and factory until that call returns.
    CGStreamerRTSPShim_connect(factory, "media-configure", G_CALLBACK(media_configure), s);
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(s->server);
    gst_rtsp_mount_points_add_factory(mounts, path, factory);
    g_object_unref(mounts);
    CGStreamerRTSPShim_connect(s->server, "client-connected", G_CALLBACK(client_connected), s);
    return s;
}

gboolean CGStreamerRTSPShim_server_listen(CGStreamerRTSPShimServer *s, char **error) {
    CGStreamerRTSPShim_access_install(s);
    GError *failure = NULL;
    s->source = gst_rtsp_server_create_source(s->server, NULL, &failure);
    if (!s->source) {
        *error = g_strdup(failure ? failure->message : "the server could not listen");
        g_clear_error(&failure);
        return FALSE;
    }
    s->context = g_main_context_new();
    g_source_attach(s->source, s->context);
    s->loop = g_main_loop_new(s->context, FALSE);
    s->serving = TRUE;
    CGStreamerRTSPShim_idle_start(s);

    GstAppSinkCallbacks callbacks = {.eos = appsink_eos, .new_sample = new_sample};
    gst_app_sink_set_callbacks(GST_APP_SINK(s->appsink), &callbacks, CGStreamerRTSPShim_server_ref(s),
                               CGStreamerRTSPShim_server_unref);
    s->thread = g_thread_new("gstpipe-rtsp", run_loop, s->loop);
    return TRUE;
}

int CGStreamerRTSPShim_server_port(CGStreamerRTSPShimServer *s) { return gst_rtsp_server_get_bound_port(s->server); }

gboolean CGStreamerRTSPShim_server_wait_finished(CGStreamerRTSPShimServer *s, guint timeout_ms) {
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += timeout_ms / 1000;
    end.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec += 1;
        end.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->lock);
    gboolean done = FALSE;
    for (;;) {
        done = s->ended;
        for (guint i = 0; done && i < s->feeds->len; i++) {
            if (!((Feed *)g_ptr_array_index(s->feeds, i))->finished) done = FALSE;
        }
        if (done || pthread_cond_timedwait(&s->changed, &s->lock, &end) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&s->lock);
    return done;
}

static GstRTSPFilterResult end_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server;
    CGStreamerRTSPShim_idle_shut_down(data, client);
    g_signal_handlers_disconnect_by_data(client, data);
    return GST_RTSP_FILTER_KEEP;
}

/// Until every client has closed, or a second has passed: then ends the loop.
static gboolean wait_for_clients(gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    GList *clients = gst_rtsp_server_client_filter(s->server, NULL, NULL);
    gboolean any = clients != NULL;
    g_list_free_full(clients, g_object_unref);
    if (any && g_get_monotonic_time() < s->closing_deadline) return G_SOURCE_CONTINUE;
    g_main_loop_quit(s->loop);
    return G_SOURCE_REMOVE;
}

/// On the server's own thread: ends every client's connection, each on its own thread (not
/// gst_rtsp_client_close from here: closing a socket another thread is reading printed GLib
/// CRITICALs when Ctrl-C came during the abuse), then waits for them to go.
static gboolean shut_down(gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    CGStreamerRTSPShim_idle_stop(s);
    gst_rtsp_server_client_filter(s->server, end_client, s);
    s->closing_deadline = g_get_monotonic_time() + G_TIME_SPAN_SECOND;
    GSource *timer = g_timeout_source_new(10);
    g_source_set_callback(timer, wait_for_clients, s, NULL);
    g_source_attach(timer, s->context);
    g_source_unref(timer);
    return G_SOURCE_REMOVE;
}

CGStreamerRTSPShimServer *CGStreamerRTSPShim_server_ref(CGStreamerRTSPShimServer *s) {
    g_atomic_int_inc(&s->refs);
    return s;
}

void CGStreamerRTSPShim_server_unref(gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    if (!g_atomic_int_dec_and_test(&s->refs)) return;
    // The last callback has returned (or server_free, when none was left): nothing uses these now.
    g_object_unref(s->factory);
    g_object_unref(s->server);
    gst_object_unref(s->appsink);
    g_ptr_array_unref(s->feeds);
    CGStreamerRTSPShim_access_free(s);
    if (s->viewer_destroy) s->viewer_destroy(s->viewer_context);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->idle_lock);
    pthread_cond_destroy(&s->changed);
    g_free(s);
}

static void unref_closure(gpointer data, GClosure *closure) {
    (void)closure;
    CGStreamerRTSPShim_server_unref(data);
}

gulong CGStreamerRTSPShim_connect(gpointer instance, const char *signal, GCallback callback,
                                  CGStreamerRTSPShimServer *s) {
    return g_signal_connect_data(instance, signal, callback, CGStreamerRTSPShim_server_ref(s), unref_closure, 0);
}

void CGStreamerRTSPShim_server_free(CGStreamerRTSPShimServer *s) {
    // Nothing new calls back into `s` from here on: not the appsink, the factory, the server, a media
    // (its handlers go with the feeds) or a client (shut_down). A call already running holds its own
    // reference: the last one out frees `s` (CGStreamerRTSPShim_server_unref).
    g_signal_handlers_disconnect_by_data(s->factory, s);
    g_signal_handlers_disconnect_by_data(s->server, s);
    if (!s->thread) {
        // Never listened: nothing runs.
        CGStreamerRTSPShim_server_unref(s);
        return;
    }
    GstAppSinkCallbacks none = {0};
    gst_app_sink_set_callbacks(GST_APP_SINK(s->appsink), &none, NULL, NULL);
    pthread_mutex_lock(&s->lock);
    s->serving = FALSE;  // no new feed, no new key frame timer
    g_ptr_array_set_size(s->feeds, 0);
    pthread_mutex_unlock(&s->lock);
    g_source_destroy(s->source);
    g_source_unref(s->source);
    GSource *idle = g_idle_source_new();
    g_source_set_callback(idle, shut_down, s, NULL);
    g_source_attach(idle, s->context);
    g_source_unref(idle);
    g_thread_join(s->thread);
    g_main_loop_unref(s->loop);
    // Destroys the key frame timers still pending: their references go with them.
    g_main_context_unref(s->context);
    CGStreamerRTSPShim_server_unref(s);
}
