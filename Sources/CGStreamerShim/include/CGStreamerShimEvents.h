// Events, queries and the probes that see them (events.c).
#ifndef CGSTREAMER_SHIM_EVENTS_H
#define CGSTREAMER_SHIM_EVENTS_H

#include <gst/gst.h>

/// `GST_EVENT_TYPE_NAME`, `GST_QUERY_TYPE_NAME`.
const char *CGStreamerShim_event_type_name(GstEvent *event);
const char *CGStreamerShim_query_type_name(GstQuery *query);
/// `gst_query_is_writable` (a macro), checked before `gst_query_writable_structure`.
gboolean CGStreamerShim_query_is_writable(GstQuery *query);
/// `GST_PAD_PROBE_INFO_DATA(info) = data`.
void CGStreamerShim_pad_probe_info_set_data(GstPadProbeInfo *info, gpointer data);

#endif
