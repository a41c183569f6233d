// GIO: the TCP connections and TLS (glib-networking: GnuTLS, with the system's trusted certificates) of
// gstpipe's HTTP client, the WHIP and WHEP clients' transport. GIO is loaded with GStreamer already;
// its TLS module only once a connection asks for it.
#include <gio/gio.h>
