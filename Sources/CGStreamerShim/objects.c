// GObject instances, their classes and properties. What makes these C: an instance's type and class
// are reached through macros that cast and read its class pointer (G_OBJECT_TYPE, G_OBJECT_GET_CLASS,
// GST_IS_BIN's G_TYPE_CHECK_INSTANCE_TYPE), which Swift does not import.
#include "CGStreamerShimObjects.h"

// G_OBJECT_TYPE, a macro.
GType CGStreamerShim_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

// GST_IS_BIN, a macro (a type check of the instance's class).
gboolean CGStreamerShim_is_bin(gpointer object) { return GST_IS_BIN(object); }

// g_object_class_find_property on G_OBJECT_GET_CLASS(object), a macro.
GParamSpec *CGStreamerShim_object_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

// g_object_class_list_properties on G_OBJECT_GET_CLASS(object), a macro.
GParamSpec **CGStreamerShim_object_list_properties(gpointer object, guint *count) {
    return g_object_class_list_properties(G_OBJECT_GET_CLASS(object), count);
}

// G_PARAM_SPEC_VALUE_TYPE, a macro.
GType CGStreamerShim_param_spec_value_type(GParamSpec *pspec) { return G_PARAM_SPEC_VALUE_TYPE(pspec); }

// gst_util_set_object_arg, after a lookup in G_OBJECT_GET_CLASS(object) (a macro): without it GLib
// warns on the console about a property the object does not have.
gboolean CGStreamerShim_object_set_from_string(gpointer object, const char *name, const char *value) {
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) == NULL) {
        return FALSE;
    }
    gst_util_set_object_arg(G_OBJECT(object), name, value);
    return TRUE;
}

// gst_value_deserialize_with_pspec and g_object_set_property, as gst_util_set_object_arg does them,
// telling each failure apart. C for G_OBJECT_GET_CLASS and for the GValue on the stack (G_VALUE_INIT,
// a macro initializer of a struct Swift would have to lay out by hand).
int CGStreamerShim_object_set_from_string_checked(gpointer object, const char *name, const char *value) {
    GParamSpec *pspec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
    if (pspec == NULL) {
        return 1;
    }
    if (!(pspec->flags & G_PARAM_WRITABLE)) {
        return 2;
    }
    GValue v = G_VALUE_INIT;
    g_value_init(&v, pspec->value_type);
    if (!gst_value_deserialize_with_pspec(&v, value, pspec)) {
        g_value_unset(&v);
        return 3;
    }
    g_object_set_property(G_OBJECT(object), pspec->name, &v);
    g_value_unset(&v);
    return 0;
}

// GST_IS_TASK and g_value_get_object on a GValue only GStreamer holds; GST_OBJECT_LOCK, a macro.
GstTask *CGStreamerShim_stream_status_task(GstMessage *message) {
    const GValue *value = gst_message_get_stream_status_object(message);
    if (value == NULL || !G_VALUE_HOLDS_OBJECT(value)) {
        return NULL;
    }
    GObject *object = g_value_get_object(value);
    return object != NULL && GST_IS_TASK(object) ? gst_object_ref(object) : NULL;
}

gboolean CGStreamerShim_task_is_running(GstTask *task) {
    GST_OBJECT_LOCK(task);
    gboolean running = task->running;
    GST_OBJECT_UNLOCK(task);
    return running;
}
