// Elements: their class's pad templates, and messages posted in their name.
#include "CGStreamerShimElements.h"

// gst_element_class_get_pad_template on GST_ELEMENT_GET_CLASS(element), a macro.
GstPadTemplate *CGStreamerShim_element_get_pad_template(GstElement *element, const char *name) {
    return gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), name);
}

// gst_element_message_full as GST_ELEMENT_ERROR calls it. The macro is C only, and so are the error
// domains (GST_STREAM_ERROR and GST_CORE_ERROR are macros over quark functions); the message takes the
// text and debug strings over, so they are g_strdup copies, and its location is this file's.
void CGStreamerShim_element_post_error(GstElement *element, gboolean state_change, const char *text,
                                       const char *debug) {
    if (state_change) {
        gst_element_message_full(element, GST_MESSAGE_ERROR, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE,
                                 g_strdup(text), debug ? g_strdup(debug) : NULL, __FILE__, G_STRFUNC, __LINE__);
    } else {
        gst_element_message_full(element, GST_MESSAGE_ERROR, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                                 g_strdup(text), debug ? g_strdup(debug) : NULL, __FILE__, G_STRFUNC, __LINE__);
    }
}

// gst_element_message_full as GST_ELEMENT_WARNING calls it (a macro; see the error above).
void CGStreamerShim_element_post_warning(GstElement *element, const char *text, const char *debug) {
    gst_element_message_full(element, GST_MESSAGE_WARNING, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                             g_strdup(text), debug ? g_strdup(debug) : NULL, __FILE__, G_STRFUNC, __LINE__);
}
