// GObject instances, their classes and properties (objects.c).
#ifndef CGSTREAMER_SHIM_OBJECTS_H
#define CGSTREAMER_SHIM_OBJECTS_H

#include <gst/gst.h>

/// `G_OBJECT_TYPE(object)`.
GType CGStreamerShim_object_type(gpointer object);
/// `GST_IS_BIN(object)`.
gboolean CGStreamerShim_is_bin(gpointer object);
/// `g_object_class_find_property(G_OBJECT_GET_CLASS(object), name)`.
GParamSpec *CGStreamerShim_object_find_property(gpointer object, const char *name);
/// All properties of an object's class; free the array with g_free.
GParamSpec **CGStreamerShim_object_list_properties(gpointer object, guint *count);
/// `G_PARAM_SPEC_VALUE_TYPE(pspec)`.
GType CGStreamerShim_param_spec_value_type(GParamSpec *pspec);
/// Sets a property from its string form, as gst-launch does (`gst_util_set_object_arg`); FALSE when
/// the object has no such property.
gboolean CGStreamerShim_object_set_from_string(gpointer object, const char *name, const char *value);
/// Sets a property from its string form like gst_util_set_object_arg, but says why it did not:
/// 0 set (GLib may still have refused the value with a warning), 1 no such property, 2 not
/// writable, 3 the string does not parse as the property's type.
int CGStreamerShim_object_set_from_string_checked(gpointer object, const char *name, const char *value);
/// The task a stream-status message names (`gst_message_get_stream_status_object`), with a reference
/// the caller releases; NULL when its object is not a GstTask (a plain GThread, or none).
GstTask *CGStreamerShim_stream_status_task(GstMessage *message);
/// The task's `running` field, read under its object lock: TRUE from `gst_task_start` until its thread
/// has left it (after the leave callback), which is what `gst_task_join` waits for.
gboolean CGStreamerShim_task_is_running(GstTask *task);

#endif
