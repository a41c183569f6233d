// Whether a certificate and key belong together. GLib loads a key that does not match its
// certificate without complaint, and the server would then fail every client's handshake; one
// handshake with itself over a socket pair, before listening, says so at the start instead.
#include "server.h"
#include <gio/gio.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    GIOStream *stream;
    GError *error;
} Side;

static gboolean accept_any(GTlsConnection *connection, GTlsCertificate *certificate, GTlsCertificateFlags errors,
                           gpointer data) {
    (void)connection;
    (void)certificate;
    (void)errors;
    (void)data;
    return TRUE;  // only the pair is in question here, not who signed it
}

static gpointer shake(gpointer data) {
    Side *side = data;
    if (!g_tls_connection_handshake(G_TLS_CONNECTION(side->stream), NULL, &side->error)) {
        // Unblock the other side, which may wait for a message this one will not send.
        g_io_stream_close(side->stream, NULL, NULL);
    }
    return NULL;
}

static GIOStream *stream_of(int fd) {
    GSocket *socket = g_socket_new_from_fd(fd, NULL);
    if (!socket) {
        close(fd);
        return NULL;
    }
    g_socket_set_timeout(socket, 10);
    GIOStream *stream = G_IO_STREAM(g_socket_connection_factory_create_connection(socket));
    g_object_unref(socket);
    return stream;
}

gboolean CGStreamerRTSPShim_tls_pair_works(GTlsCertificate *certificate, char **error) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return TRUE;  // cannot check: the clients will tell
    GIOStream *server_stream = stream_of(fds[0]);
    GIOStream *client_stream = stream_of(fds[1]);
    gboolean works = TRUE;
    Side server = {0}, client = {0};
    if (server_stream && client_stream) {
        server.stream = G_IO_STREAM(g_tls_server_connection_new(server_stream, certificate, &server.error));
        client.stream = G_IO_STREAM(g_tls_client_connection_new(client_stream, NULL, &client.error));
    }
    if (server.stream && client.stream) {
        g_signal_connect(client.stream, "accept-certificate", G_CALLBACK(accept_any), NULL);
        GThread *thread = g_thread_new("gstpipe-tls-check", shake, &server);
        shake(&client);
        g_thread_join(thread);
        GError *failure = server.error ? server.error : client.error;
        if (failure) {
            works = FALSE;
            *error = g_strdup_printf("a TLS handshake with this certificate and key fails (%s): the key is not the "
                                     "certificate's: give the key it was made with",
                                     failure->message);
        }
    }
    g_clear_error(&server.error);
    g_clear_error(&client.error);
    g_clear_object(&server.stream);
    g_clear_object(&client.stream);
    g_clear_object(&server_stream);
    g_clear_object(&client_stream);
    return works;
}
