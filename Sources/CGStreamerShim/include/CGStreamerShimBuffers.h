// Buffers: writability and reuse (buffers.c).
#ifndef CGSTREAMER_SHIM_BUFFERS_H
#define CGSTREAMER_SHIM_BUFFERS_H

#include <gst/gst.h>

/// `gst_buffer_is_writable` (a macro).
gboolean CGStreamerShim_buffer_is_writable(GstBuffer *buffer);
/// Makes `buffer` as new again (no timestamps, offsets or flags) when nobody else holds it or its one
/// block of `size` bytes and it carries no metadata, as a buffer pool resets a buffer coming back;
/// FALSE, the buffer untouched, otherwise.
gboolean CGStreamerShim_buffer_recycle(GstBuffer *buffer, gsize size);

#endif
