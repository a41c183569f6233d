// GIO: the TCP connections and TLS (glib-networking: GnuTLS, with the system's trusted certificates) of
// gstpipe's HTTP client, the WHIP and WHEP clients' transport. GIO is opened on the first call
// (Sources/CLazyLibraries), its TLS module once a connection asks for it.
#include <gio/gio.h>
