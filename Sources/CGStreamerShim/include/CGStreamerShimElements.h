// Elements: their class's pad templates, and messages posted in their name (elements.c).
#ifndef CGSTREAMER_SHIM_ELEMENTS_H
#define CGSTREAMER_SHIM_ELEMENTS_H

#include <gst/gst.h>

/// `gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), name)`.
GstPadTemplate *CGStreamerShim_element_get_pad_template(GstElement *element, const char *name);
/// Posts an error message from `element`, as GST_ELEMENT_ERROR does (GST_STREAM_ERROR_FAILED or
/// GST_CORE_ERROR_STATE_CHANGE when `state_change` is true).
void CGStreamerShim_element_post_error(GstElement *element, gboolean state_change, const char *text,
                                       const char *debug);
/// Posts a warning message from `element`, as GST_ELEMENT_WARNING does.
void CGStreamerShim_element_post_warning(GstElement *element, const char *text, const char *debug);

#endif
