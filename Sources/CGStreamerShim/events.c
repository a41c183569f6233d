// Events, queries and the probes that see them: macros over the mini-object and probe structs.
#include "CGStreamerShimEvents.h"

// GST_EVENT_TYPE_NAME, a macro.
const char *CGStreamerShim_event_type_name(GstEvent *event) { return GST_EVENT_TYPE_NAME(event); }

// GST_QUERY_TYPE_NAME, a macro.
const char *CGStreamerShim_query_type_name(GstQuery *query) { return GST_QUERY_TYPE_NAME(query); }

// gst_query_is_writable, a macro (gst_mini_object_is_writable through a cast).
gboolean CGStreamerShim_query_is_writable(GstQuery *query) { return gst_query_is_writable(query); }

// GST_PAD_PROBE_INFO_DATA as an assignment: a probe replacing the data it was given (a macro).
void CGStreamerShim_pad_probe_info_set_data(GstPadProbeInfo *info, gpointer data) {
    GST_PAD_PROBE_INFO_DATA(info) = data;
}
