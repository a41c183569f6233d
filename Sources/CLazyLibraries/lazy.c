// The functions gstpipe calls in the libraries only its servers, clients and encoder need, each opening its
// library on first call. Linked at start-up, those libraries (and GIO, libmount, libselinux and libblkid, which
// they bring) cost every run about 1.2 ms of a 20 ms start on Linux, most of it the dynamic loader's symbol
// lookups for their relocations, and each later lookup searched them too.
//
// Each definition is hidden: it satisfies gstpipe's own calls and is never exported, so the library's own calls,
// and those of a plugin that links it (x264enc, webrtcbin), go to the library as usual. A call to one of these
// libraries that is not listed here fails to link ("undefined reference"): add a line for it below.
#include "lazy_libraries.h"

#define GST_USE_UNSTABLE_API
#include <dlfcn.h>
#include <gio/gio.h>
#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <gst/rtsp/gstrtspconnection.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <x264.h>

// On Linux only: elsewhere Package.swift links the libraries as before, and this file defines nothing.
#ifdef __linux__

#define LAZY_STRING(x) #x
#define LAZY_NAME(x) LAZY_STRING(x)

enum { RTSP_SERVER, RTSP, SDP, WEBRTC, GIO, X264, LIBRARY_COUNT };

static const struct {
    const char *soname;
    const char *package;
} libraries[LIBRARY_COUNT] = {
    [RTSP_SERVER] = {"libgstrtspserver-1.0.so.0", "libgstrtspserver-1.0-0"},
    [RTSP] = {"libgstrtsp-1.0.so.0", "libgstreamer-plugins-base1.0-0"},
    [SDP] = {"libgstsdp-1.0.so.0", "libgstreamer-plugins-base1.0-0"},
    [WEBRTC] = {"libgstwebrtc-1.0.so.0", "libgstreamer-plugins-bad1.0-0"},
    [GIO] = {"libgio-2.0.so.0", "libglib2.0-0"},
    [X264] = {"libx264.so." LAZY_NAME(X264_BUILD), "libx264-" LAZY_NAME(X264_BUILD)},
};

static void *handles[LIBRARY_COUNT];

// `library`, opened now if it is not yet; NULL with what is wrong in `message` when it cannot be. Two threads may
// both open it at once: dlopen counts the second opening and returns the same handle.
static void *open_library(int library, char *message, size_t size) {
    void *handle = __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE);
    if (handle) return handle;
    handle = dlopen(libraries[library].soname, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        snprintf(message, size, "cannot open %s (%s): install %s", libraries[library].soname, dlerror(),
            libraries[library].package);
        return NULL;
    }
    __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    return handle;
}

// The function `name` of `library`; `cache` keeps it for the next call. A library or function that is missing
// ends the process as the dynamic loader would have at start-up, saying what to install.
static void *lazy_function(int library, const char *name, void **cache) {
    void *function = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (function) return function;
    char message[512];
    void *handle = open_library(library, message, sizeof message);
    if (!handle) {
        fprintf(stderr, "ERROR: %s, which has %s.\n", message, name);
        _exit(127);
    }
    function = dlsym(handle, name);
    if (!function) {
        fprintf(stderr, "ERROR: %s has no function %s: install the version gstpipe was built with (%s).\n",
            libraries[library].soname, name, libraries[library].package);
        _exit(127);
    }
    __atomic_store_n(cache, function, __ATOMIC_RELEASE);
    return function;
}

const char *CLazyLibraries_x264Missing(void) {
    static _Thread_local char message[512];
    return open_library(X264, message, sizeof message) ? NULL : message;
}

#define LAZY(library, result, name, parameters, arguments)                                                     \
    __attribute__((visibility("hidden"))) result name parameters {                                              \
        static void *function;                                                                                  \
        return ((result(*) parameters)lazy_function(library, LAZY_NAME(name), &function))arguments;             \
    }
#define LAZY_VOID(library, name, parameters, arguments)                                                        \
    __attribute__((visibility("hidden"))) void name parameters {                                                \
        static void *function;                                                                                  \
        ((void(*) parameters)lazy_function(library, LAZY_NAME(name), &function))arguments;                      \
    }

// Variadic: passed on to the va_list form, which the library has too.
__attribute__((visibility("hidden"))) GstRTSPToken *gst_rtsp_token_new(const gchar *firstfield, ...) {
    static void *function;
    GstRTSPToken *(*valist)(const gchar *, va_list) =
        lazy_function(RTSP_SERVER, "gst_rtsp_token_new_valist", &function);
    va_list arguments;
    va_start(arguments, firstfield);
    GstRTSPToken *token = valist(firstfield, arguments);
    va_end(arguments);
    return token;
}

// Variadic, with no va_list form: the role's structure is made here and given to the form that takes one.
__attribute__((visibility("hidden"))) void gst_rtsp_media_factory_add_role(
    GstRTSPMediaFactory *factory, const gchar *role, const gchar *fieldname, ...) {
    static void *function;
    void (*fromStructure)(GstRTSPMediaFactory *, GstStructure *) =
        lazy_function(RTSP_SERVER, "gst_rtsp_media_factory_add_role_from_structure", &function);
    va_list arguments;
    va_start(arguments, fieldname);
    GstStructure *structure = gst_structure_new_valist(role, fieldname, arguments);
    va_end(arguments);
    fromStructure(factory, structure);
    gst_structure_free(structure);
}

LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_add_basic,
    (GstRTSPAuth *auth, const gchar *basic, GstRTSPToken *token),
    (auth, basic, token))
LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_add_digest,
    (GstRTSPAuth *auth, const gchar *user, const gchar *pass, GstRTSPToken *token),
    (auth, user, pass, token))
LAZY(RTSP_SERVER, GstRTSPAuthMethod, gst_rtsp_auth_get_supported_methods, (GstRTSPAuth *auth), (auth))
LAZY(RTSP_SERVER, gchar *, gst_rtsp_auth_make_basic, (const gchar *user, const gchar *pass), (user, pass))
LAZY(RTSP_SERVER, GstRTSPAuth *, gst_rtsp_auth_new, (void), ())
LAZY(RTSP_SERVER, gboolean, gst_rtsp_auth_parse_htdigest,
    (GstRTSPAuth *auth, const gchar *path, GstRTSPToken *token),
    (auth, path, token))
LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_set_default_token, (GstRTSPAuth *auth, GstRTSPToken *token), (auth, token))
LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_set_realm, (GstRTSPAuth *auth, const gchar *realm), (auth, realm))
LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_set_supported_methods,
    (GstRTSPAuth *auth, GstRTSPAuthMethod methods),
    (auth, methods))
LAZY_VOID(RTSP_SERVER, gst_rtsp_auth_set_tls_certificate, (GstRTSPAuth *auth, GTlsCertificate *cert), (auth, cert))
LAZY(RTSP_SERVER, GstRTSPConnection *, gst_rtsp_client_get_connection, (GstRTSPClient *client), (client))
LAZY(RTSP_SERVER, GList *, gst_rtsp_client_session_filter,
    (GstRTSPClient *client, GstRTSPClientSessionFilterFunc func, gpointer user_data),
    (client, func, user_data))
LAZY(RTSP_SERVER, GstRTSPMediaFactory *, gst_rtsp_media_factory_new, (void), ())
LAZY_VOID(RTSP_SERVER, gst_rtsp_media_factory_set_launch,
    (GstRTSPMediaFactory *factory, const gchar *launch),
    (factory, launch))
LAZY_VOID(RTSP_SERVER, gst_rtsp_media_factory_set_protocols,
    (GstRTSPMediaFactory *factory, GstRTSPLowerTrans protocols),
    (factory, protocols))
LAZY_VOID(RTSP_SERVER, gst_rtsp_media_factory_set_shared,
    (GstRTSPMediaFactory *factory, gboolean shared),
    (factory, shared))
LAZY(RTSP_SERVER, GstElement *, gst_rtsp_media_get_element, (GstRTSPMedia *media), (media))
LAZY_VOID(RTSP_SERVER, gst_rtsp_mount_points_add_factory,
    (GstRTSPMountPoints *mounts, const gchar *path, GstRTSPMediaFactory *factory),
    (mounts, path, factory))
LAZY(RTSP_SERVER, GList *, gst_rtsp_server_client_filter,
    (GstRTSPServer *server, GstRTSPServerClientFilterFunc func, gpointer user_data),
    (server, func, user_data))
LAZY(RTSP_SERVER, GSource *, gst_rtsp_server_create_source,
    (GstRTSPServer *server, GCancellable *cancellable, GError **error),
    (server, cancellable, error))
LAZY(RTSP_SERVER, int, gst_rtsp_server_get_bound_port, (GstRTSPServer *server), (server))
LAZY(RTSP_SERVER, GstRTSPMountPoints *, gst_rtsp_server_get_mount_points, (GstRTSPServer *server), (server))
LAZY(RTSP_SERVER, GstRTSPServer *, gst_rtsp_server_new, (void), ())
LAZY_VOID(RTSP_SERVER, gst_rtsp_server_set_address, (GstRTSPServer *server, const gchar *address), (server, address))
LAZY_VOID(RTSP_SERVER, gst_rtsp_server_set_auth, (GstRTSPServer *server, GstRTSPAuth *auth), (server, auth))
LAZY_VOID(RTSP_SERVER, gst_rtsp_server_set_backlog, (GstRTSPServer *server, gint backlog), (server, backlog))
LAZY_VOID(RTSP_SERVER, gst_rtsp_server_set_service, (GstRTSPServer *server, const gchar *service), (server, service))
LAZY_VOID(RTSP_SERVER, gst_rtsp_server_set_thread_pool,
    (GstRTSPServer *server, GstRTSPThreadPool *pool),
    (server, pool))
LAZY(RTSP_SERVER, GType, gst_rtsp_thread_pool_get_type, (void), ())
LAZY_VOID(RTSP_SERVER, gst_rtsp_thread_pool_set_max_threads,
    (GstRTSPThreadPool *pool, gint max_threads),
    (pool, max_threads))
LAZY(RTSP, GSocket *, gst_rtsp_connection_get_read_socket, (const GstRTSPConnection *conn), (conn))
LAZY(RTSP, const gchar *, gst_rtsp_connection_get_tunnelid, (const GstRTSPConnection *conn), (conn))
LAZY(SDP, gchar *, gst_sdp_message_as_text, (const GstSDPMessage *msg), (msg))
LAZY(SDP, GstSDPResult, gst_sdp_message_free, (GstSDPMessage *msg), (msg))
LAZY(SDP, GstSDPResult, gst_sdp_message_new_from_text, (const gchar *text, GstSDPMessage **msg), (text, msg))
LAZY_VOID(WEBRTC, gst_webrtc_data_channel_close, (GstWebRTCDataChannel *channel), (channel))
LAZY(WEBRTC, GType, gst_webrtc_data_channel_get_type, (void), ())
LAZY(WEBRTC, gboolean, gst_webrtc_data_channel_send_data_full,
    (GstWebRTCDataChannel *channel, GBytes *data, GError **error),
    (channel, data, error))
LAZY(WEBRTC, gboolean, gst_webrtc_data_channel_send_string_full,
    (GstWebRTCDataChannel *channel, const gchar *str, GError **error),
    (channel, str, error))
LAZY(WEBRTC, const gchar *, gst_webrtc_sdp_type_to_string, (GstWebRTCSDPType type), (type))
LAZY_VOID(WEBRTC, gst_webrtc_session_description_free, (GstWebRTCSessionDescription *desc), (desc))
LAZY(WEBRTC, GType, gst_webrtc_session_description_get_type, (void), ())
LAZY(WEBRTC, GstWebRTCSessionDescription *, gst_webrtc_session_description_new,
    (GstWebRTCSDPType type, GstSDPMessage *sdp),
    (type, sdp))
LAZY_VOID(GIO, g_cancellable_cancel, (GCancellable *cancellable), (cancellable))
LAZY(GIO, GCancellable *, g_cancellable_new, (void), ())
LAZY(GIO, gssize, g_input_stream_read,
    (GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable, GError **error),
    (stream, buffer, count, cancellable, error))
LAZY(GIO, GQuark, g_io_error_quark, (void), ())
LAZY(GIO, gboolean, g_io_stream_close,
    (GIOStream *stream, GCancellable *cancellable, GError **error),
    (stream, cancellable, error))
LAZY(GIO, GInputStream *, g_io_stream_get_input_stream, (GIOStream *stream), (stream))
LAZY(GIO, GOutputStream *, g_io_stream_get_output_stream, (GIOStream *stream), (stream))
LAZY(GIO, GType, g_io_stream_get_type, (void), ())
LAZY(GIO, gboolean, g_output_stream_write_all,
    (GOutputStream *stream, const void *buffer, gsize count, gsize *bytes_written, GCancellable *cancellable,
     GError **error),
    (stream, buffer, count, bytes_written, cancellable, error))
LAZY(GIO, GQuark, g_resolver_error_quark, (void), ())
LAZY(GIO, GSocketConnection *, g_socket_client_connect_to_host,
    (GSocketClient *client, const gchar *host_and_port, guint16 default_port, GCancellable *cancellable,
     GError **error),
    (client, host_and_port, default_port, cancellable, error))
LAZY(GIO, GSocketClient *, g_socket_client_new, (void), ())
LAZY_VOID(GIO, g_socket_client_set_timeout, (GSocketClient *client, guint timeout), (client, timeout))
LAZY_VOID(GIO, g_socket_client_set_tls, (GSocketClient *client, gboolean tls), (client, tls))
LAZY(GIO, gboolean, g_socket_close, (GSocket *socket, GError **error), (socket, error))
LAZY(GIO, GSocketConnection *, g_socket_connection_factory_create_connection, (GSocket *socket), (socket))
LAZY(GIO, gboolean, g_socket_is_closed, (GSocket *socket), (socket))
LAZY(GIO, GSocket *, g_socket_new_from_fd, (gint fd, GError **error), (fd, error))
LAZY_VOID(GIO, g_socket_set_timeout, (GSocket *socket, guint timeout), (socket, timeout))
LAZY(GIO, gboolean, g_socket_shutdown,
    (GSocket *socket, gboolean shutdown_read, gboolean shutdown_write, GError **error),
    (socket, shutdown_read, shutdown_write, error))
LAZY(GIO, GTlsCertificate *, g_tls_certificate_new_from_files,
    (const gchar *cert_file, const gchar *key_file, GError **error),
    (cert_file, key_file, error))
LAZY(GIO, GIOStream *, g_tls_client_connection_new,
    (GIOStream *base_io_stream, GSocketConnectable *server_identity, GError **error),
    (base_io_stream, server_identity, error))
LAZY(GIO, GType, g_tls_connection_get_type, (void), ())
LAZY(GIO, gboolean, g_tls_connection_handshake,
    (GTlsConnection *conn, GCancellable *cancellable, GError **error),
    (conn, cancellable, error))
LAZY(GIO, GQuark, g_tls_error_quark, (void), ())
LAZY(GIO, GIOStream *, g_tls_server_connection_new,
    (GIOStream *base_io_stream, GTlsCertificate *certificate, GError **error),
    (base_io_stream, certificate, error))
LAZY_VOID(X264, x264_encoder_close, (x264_t *encoder), (encoder))
LAZY(X264, int, x264_encoder_delayed_frames, (x264_t *encoder), (encoder))
LAZY(X264, int, x264_encoder_encode,
    (x264_t *encoder, x264_nal_t **pp_nal, int *pi_nal, x264_picture_t *pic_in, x264_picture_t *pic_out),
    (encoder, pp_nal, pi_nal, pic_in, pic_out))
LAZY(X264, int, x264_encoder_headers, (x264_t *encoder, x264_nal_t **pp_nal, int *pi_nal), (encoder, pp_nal, pi_nal))
LAZY(X264, int, x264_encoder_maximum_delayed_frames, (x264_t *encoder), (encoder))
LAZY(X264, x264_t *, x264_encoder_open, (x264_param_t *param), (param))
LAZY(X264, int, x264_param_default_preset,
    (x264_param_t *param, const char *preset, const char *tune),
    (param, preset, tune))
LAZY_VOID(X264, x264_picture_init, (x264_picture_t *pic), (pic))

#else

const char *CLazyLibraries_x264Missing(void) { return NULL; }

#endif
