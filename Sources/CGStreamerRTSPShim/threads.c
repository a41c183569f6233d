// The threads clients are served from. gst-rtsp-server's default pool serves every
// client from one thread: a peer whose request line never ends kept it parsing, and a real viewer's
// OPTIONS waited behind it until the idle timeout closed them both. Here each client has a thread of
// its own, at the lowest priority (nice 19): 150 such peers then share what CPU the producer and the
// media pipelines leave over, instead of taking it from them, while a viewer's few requests still get
// their turn (where the thread can be given its priority back afterwards: see can_return_to). The media
// pipelines' threads (GST_RTSP_THREAD_TYPE_MEDIA) and GStreamer's streaming
// threads keep their priority.
#include "server.h"
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Threads the clients are served from, at most; beyond them, clients share threads in turn. 500
/// abusive connections cost 500 mostly idle threads, well within the process's thread limit.
#define MAX_CLIENT_THREADS 1024
/// The nice value of a client's thread.
#define CLIENT_NICE 19

typedef struct {
    GstRTSPThreadPool parent;
} ShimThreadPool;

typedef struct {
    GstRTSPThreadPoolClass parent_class;
} ShimThreadPoolClass;

static GType shim_thread_pool_get_type(void);
G_DEFINE_TYPE(ShimThreadPool, shim_thread_pool, GST_TYPE_RTSP_THREAD_POOL)

static id_t this_thread(void) { return (id_t)syscall(SYS_gettid); }

/// The nice value this thread had before serving a client, and whether it was raised: a thread's own
/// (on Linux a nice value is per thread), so thread-local.
static __thread int saved_nice;
static __thread gboolean raised;

/// Whether this thread could go back to `nice` after 19: root, or RLIMIT_NICE allowing it (its ceiling
/// is 20 - rlim_cur). Without that, GLib could hand a thread left at nice 19 to a media pipeline or a
/// GStreamer task (its pool is shared), so the client's thread stays at the usual priority instead.
static gboolean can_return_to(int nice) {
    if (geteuid() == 0) return TRUE;
    struct rlimit limit;
    if (getrlimit(RLIMIT_NICE, &limit) != 0) return FALSE;
    return limit.rlim_cur == RLIM_INFINITY || 20 - (long)limit.rlim_cur <= nice;
}

static void thread_enter(GstRTSPThreadPool *pool, GstRTSPThread *thread) {
    (void)pool;
    if (thread->type != GST_RTSP_THREAD_TYPE_CLIENT) return;
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, this_thread());
    if (errno != 0 || nice >= CLIENT_NICE || !can_return_to(nice)) return;
    if (setpriority(PRIO_PROCESS, this_thread(), CLIENT_NICE) == 0) {
        saved_nice = nice;
        raised = TRUE;
    }
}

/// GLib reuses its pool's threads for other work (a media pipeline's, a GStreamer task's): back to
/// the priority the thread had.
static void thread_leave(GstRTSPThreadPool *pool, GstRTSPThread *thread) {
    (void)pool;
    if (thread->type != GST_RTSP_THREAD_TYPE_CLIENT || !raised) return;
    (void)setpriority(PRIO_PROCESS, this_thread(), saved_nice);
    raised = FALSE;
}

/// A client that plays is a viewer, not a peer whose request never ends, and its thread also writes
/// the media sent to it over the RTSP connection (RTP over TCP) whenever the socket was full. At nice 19
/// among 150 peers parsing endless requests, that thread fell behind, the server dropped the viewer's
/// packets, and ffmpeg decoded two broken pictures and then none for the rest of the run. Its thread
/// gets the priority it had back when it plays (it runs in that thread: "play-request").
void CGStreamerRTSPShim_threads_client_plays(void) {
    if (!raised) return;
    (void)setpriority(PRIO_PROCESS, this_thread(), saved_nice);
    raised = FALSE;
}

static void shim_thread_pool_class_init(ShimThreadPoolClass *klass) {
    GstRTSPThreadPoolClass *pool_class = GST_RTSP_THREAD_POOL_CLASS(klass);
    pool_class->thread_enter = thread_enter;
    pool_class->thread_leave = thread_leave;
}

static void shim_thread_pool_init(ShimThreadPool *pool) {
    gst_rtsp_thread_pool_set_max_threads(GST_RTSP_THREAD_POOL(pool), MAX_CLIENT_THREADS);
}

void CGStreamerRTSPShim_threads_install(CGStreamerRTSPShimServer *s) {
    GstRTSPThreadPool *pool = g_object_new(shim_thread_pool_get_type(), NULL);
    gst_rtsp_server_set_thread_pool(s->server, pool);
    g_object_unref(pool);
}
