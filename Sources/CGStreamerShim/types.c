// GTypes that C spells as macros. GLib's fundamental types (G_TYPE_BOOLEAN, ...) are
// G_TYPE_MAKE_FUNDAMENTAL(n), a function-like macro, and GST_TYPE_CAPS and GST_TYPE_FRACTION name
// variables behind macros: Swift imports none of them, so each is one function here, named after it.
#include "CGStreamerShimTypes.h"

GType CGStreamerShim_type_none(void) { return G_TYPE_NONE; }
GType CGStreamerShim_type_boolean(void) { return G_TYPE_BOOLEAN; }
GType CGStreamerShim_type_char(void) { return G_TYPE_CHAR; }
GType CGStreamerShim_type_uchar(void) { return G_TYPE_UCHAR; }
GType CGStreamerShim_type_int(void) { return G_TYPE_INT; }
GType CGStreamerShim_type_uint(void) { return G_TYPE_UINT; }
GType CGStreamerShim_type_long(void) { return G_TYPE_LONG; }
GType CGStreamerShim_type_ulong(void) { return G_TYPE_ULONG; }
GType CGStreamerShim_type_int64(void) { return G_TYPE_INT64; }
GType CGStreamerShim_type_uint64(void) { return G_TYPE_UINT64; }
GType CGStreamerShim_type_float(void) { return G_TYPE_FLOAT; }
GType CGStreamerShim_type_double(void) { return G_TYPE_DOUBLE; }
GType CGStreamerShim_type_string(void) { return G_TYPE_STRING; }
GType CGStreamerShim_type_enum(void) { return G_TYPE_ENUM; }
GType CGStreamerShim_type_flags(void) { return G_TYPE_FLAGS; }
GType CGStreamerShim_type_boxed(void) { return G_TYPE_BOXED; }
GType CGStreamerShim_type_param(void) { return G_TYPE_PARAM; }
GType CGStreamerShim_type_object(void) { return G_TYPE_OBJECT; }
GType CGStreamerShim_type_caps(void) { return GST_TYPE_CAPS; }
GType CGStreamerShim_type_fraction(void) { return GST_TYPE_FRACTION; }
