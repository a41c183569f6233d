// GTypes that C spells as macros (types.c).
#ifndef CGSTREAMER_SHIM_TYPES_H
#define CGSTREAMER_SHIM_TYPES_H

#include <gst/gst.h>

/// `G_TYPE_NONE`, `G_TYPE_BOOLEAN`, ... and `GST_TYPE_CAPS`, `GST_TYPE_FRACTION`: one function each.
GType CGStreamerShim_type_none(void);
GType CGStreamerShim_type_boolean(void);
GType CGStreamerShim_type_char(void);
GType CGStreamerShim_type_uchar(void);
GType CGStreamerShim_type_int(void);
GType CGStreamerShim_type_uint(void);
GType CGStreamerShim_type_long(void);
GType CGStreamerShim_type_ulong(void);
GType CGStreamerShim_type_int64(void);
GType CGStreamerShim_type_uint64(void);
GType CGStreamerShim_type_float(void);
GType CGStreamerShim_type_double(void);
GType CGStreamerShim_type_string(void);
GType CGStreamerShim_type_enum(void);
GType CGStreamerShim_type_flags(void);
GType CGStreamerShim_type_boxed(void);
GType CGStreamerShim_type_param(void);
GType CGStreamerShim_type_object(void);
GType CGStreamerShim_type_caps(void);
GType CGStreamerShim_type_fraction(void);

#endif
