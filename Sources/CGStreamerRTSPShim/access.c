// Who may watch: users (GstRTSPAuth, Digest unless Basic is asked for), TLS, and a limit on clients.
// gst-rtsp-server does the checking and the cryptography; this only configures it.
#include "server.h"
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

// The role a let-in client's token names, which the factory's permissions allow.
static const char *const role = "viewer";
static const char *const realm = "gstpipe";

const char *CGStreamerRTSPShim_access_realm(void) { return realm; }

/// The auth object, made on first use: users, TLS or both need one.
static GstRTSPAuth *auth_of(CGStreamerRTSPShimServer *s) {
    if (!s->auth) {
        s->auth = gst_rtsp_auth_new();
        gst_rtsp_auth_set_realm(s->auth, realm);
        gst_rtsp_auth_set_supported_methods(s->auth, GST_RTSP_AUTH_DIGEST);
        s->token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, role, NULL);
        gst_rtsp_media_factory_add_role(s->factory, role, GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                        GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
    }
    return s->auth;
}

// Whether Basic was asked for, kept in the auth's supported methods.
static gboolean uses_basic(CGStreamerRTSPShimServer *s) {
    return (gst_rtsp_auth_get_supported_methods(auth_of(s)) & GST_RTSP_AUTH_BASIC) != 0;
}

void CGStreamerRTSPShim_access_use_basic(CGStreamerRTSPShimServer *s) {
    gst_rtsp_auth_set_supported_methods(auth_of(s), GST_RTSP_AUTH_BASIC);
}

void CGStreamerRTSPShim_access_add_user(CGStreamerRTSPShimServer *s, const char *user, const char *password) {
    GstRTSPAuth *auth = auth_of(s);
    s->has_users = TRUE;
    // gst-rtsp-server accepts any credentials it holds, whatever it advertises: a Basic entry would
    // let a client send the password in clear although Digest was asked for. So one kind only.
    if (uses_basic(s)) {
        gchar *basic = gst_rtsp_auth_make_basic(user, password);
        gst_rtsp_auth_add_basic(auth, basic, s->token);
        g_free(basic);
    } else {
        gst_rtsp_auth_add_digest(auth, user, password, s->token);
    }
}

gboolean CGStreamerRTSPShim_access_add_user_hash(CGStreamerRTSPShimServer *s, const char *user, const char *hash,
                                                 char **error) {
    // gst-rtsp-server takes a precomputed hash only from an htdigest file: one line, in a file only
    // this user can read, removed at once.
    gchar *path = NULL;
    GError *failure = NULL;
    gint fd = g_file_open_tmp("gstpipe-htdigest-XXXXXX", &path, &failure);
    if (fd < 0) {
        *error = g_strdup_printf("cannot write a temporary file: %s", failure->message);
        g_clear_error(&failure);
        return FALSE;
    }
    gchar *line = g_strdup_printf("%s:%s:%s\n", user, realm, hash);
    gboolean written = write(fd, line, strlen(line)) == (gssize)strlen(line);
    close(fd);
    g_free(line);
    gboolean parsed = written && gst_rtsp_auth_parse_htdigest(auth_of(s), path, s->token);
    s->has_users = s->has_users || parsed;
    g_unlink(path);
    g_free(path);
    if (!parsed) *error = g_strdup("gst-rtsp-server refused the digest hash");
    return parsed;
}

gboolean CGStreamerRTSPShim_access_use_tls(CGStreamerRTSPShimServer *s, const char *certificate_file,
                                           const char *key_file, char **error) {
    GError *failure = NULL;
    GTlsCertificate *certificate = g_tls_certificate_new_from_files(certificate_file, key_file, &failure);
    if (!certificate) {
        *error = g_strdup_printf("GLib cannot load them (%s): give a PEM certificate and its key, as "
                                 "openssl req -x509 -newkey rsa:2048 -nodes writes them",
                                 failure ? failure->message : "no reason given");
        g_clear_error(&failure);
        return FALSE;
    }
    GDateTime *until = NULL;
    g_object_get(certificate, "not-valid-after", &until, NULL);
    if (until) {
        GDateTime *now = g_date_time_new_now_utc();
        gboolean expired = g_date_time_compare(until, now) < 0;
        gchar *when = g_date_time_format_iso8601(until);
        if (expired) *error = g_strdup_printf("the certificate expired on %s: renew it", when);
        g_free(when);
        g_date_time_unref(now);
        g_date_time_unref(until);
        if (expired) {
            g_object_unref(certificate);
            return FALSE;
        }
    }
    if (!CGStreamerRTSPShim_tls_pair_works(certificate, error)) {
        g_object_unref(certificate);
        return FALSE;
    }
    gst_rtsp_auth_set_tls_certificate(auth_of(s), certificate);
    g_object_unref(certificate);
    // RTP over UDP would leave the TLS connection in clear: media goes interleaved in it instead.
    gst_rtsp_media_factory_set_protocols(s->factory, GST_RTSP_LOWER_TRANS_TCP);
    return TRUE;
}

void CGStreamerRTSPShim_access_limit_clients(CGStreamerRTSPShimServer *s, int clients) { s->max_clients = clients; }

// A client counted: it took one of the places (its first SETUP), released when it closes.
static const char *const counted_key = "gstpipe-counted";

/// A client takes a place at its first SETUP: by then gst-rtsp-server has checked its credentials
/// (finding the media checks its token), so connections that never authenticate, however many, take
/// none and cannot keep a viewer out. Beyond the limit, the SETUP is answered 503.
static GstRTSPStatusCode take_place(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)context;
    CGStreamerRTSPShimServer *s = data;
    if (g_object_get_data(G_OBJECT(client), counted_key)) return GST_RTSP_STS_OK;
    // Taken on the client's thread, released on another's: atomically, and never beyond the limit.
    for (;;) {
        gint taken = g_atomic_int_get(&s->clients);
        if (taken >= s->max_clients) return GST_RTSP_STS_SERVICE_UNAVAILABLE;
        if (g_atomic_int_compare_and_exchange(&s->clients, taken, taken + 1)) break;
    }
    g_object_set_data(G_OBJECT(client), counted_key, GINT_TO_POINTER(1));
    return GST_RTSP_STS_OK;
}

static void client_closed(GstRTSPClient *client, gpointer data) {
    CGStreamerRTSPShimServer *s = data;
    if (g_object_get_data(G_OBJECT(client), counted_key)) g_atomic_int_add(&s->clients, -1);
}

void CGStreamerRTSPShim_access_client_connected(CGStreamerRTSPShimServer *s, GstRTSPClient *client) {
    if (s->max_clients <= 0) return;
    CGStreamerRTSPShim_connect(client, "pre-setup-request", G_CALLBACK(take_place), s);
    CGStreamerRTSPShim_connect(client, "closed", G_CALLBACK(client_closed), s);
}

void CGStreamerRTSPShim_access_install(CGStreamerRTSPShimServer *s) {
    if (!s->auth) return;
    // TLS alone lets anyone in: everyone then holds the token the users would.
    GstRTSPToken *anyone = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, role, NULL);
    if (!s->has_users) gst_rtsp_auth_set_default_token(s->auth, anyone);
    gst_rtsp_token_unref(anyone);
    gst_rtsp_server_set_auth(s->server, s->auth);
}

void CGStreamerRTSPShim_access_free(CGStreamerRTSPShimServer *s) {
    if (s->auth) g_object_unref(s->auth);
    if (s->token) gst_rtsp_token_unref(s->token);
}
