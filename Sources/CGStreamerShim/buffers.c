// Buffers: writability and reuse.
#include "CGStreamerShimBuffers.h"

// gst_buffer_is_writable, a macro (gst_mini_object_is_writable through a cast).
gboolean CGStreamerShim_buffer_is_writable(GstBuffer *buffer) { return gst_buffer_is_writable(buffer); }

// What GstBufferPool's reset_buffer does to a buffer coming back, for a Swift element's spare buffers
// (ElementBufferPool.swift), after the checks that it may be reused. C for the macros it is made of
// (GST_MINI_OBJECT_REFCOUNT_VALUE, GST_BUFFER_FLAG_IS_SET, GST_BUFFER_PTS and the other field
// accessors, gst_buffer_is_writable), and so that the checks of every pushed buffer cost one call.
gboolean CGStreamerShim_buffer_recycle(GstBuffer *buffer, gsize size) {
    // The reference count first: a buffer downstream still holds is the usual "no", without a call.
    if (GST_MINI_OBJECT_REFCOUNT_VALUE(buffer) != 1 || !gst_buffer_is_writable(buffer)) return FALSE;
    if (GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_TAG_MEMORY)) return FALSE;
    if (gst_buffer_n_memory(buffer) != 1) return FALSE;
    GstMemory *memory = gst_buffer_peek_memory(buffer, 0);
    if (memory->size != size || !gst_memory_is_writable(memory)) return FALSE;
    gpointer state = NULL;
    if (gst_buffer_iterate_meta(buffer, &state) != NULL) return FALSE;
    GST_BUFFER_FLAGS(buffer) = 0;
    GST_BUFFER_PTS(buffer) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS(buffer) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(buffer) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_OFFSET(buffer) = GST_BUFFER_OFFSET_NONE;
    GST_BUFFER_OFFSET_END(buffer) = GST_BUFFER_OFFSET_NONE;
    return TRUE;
}
