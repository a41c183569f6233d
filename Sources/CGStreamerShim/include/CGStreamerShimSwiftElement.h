// The GType of every element written in Swift, and the callbacks through which it calls into Swift
// (swift_element.c).
#ifndef CGSTREAMER_SHIM_SWIFT_ELEMENT_H
#define CGSTREAMER_SHIM_SWIFT_ELEMENT_H

#include <gst/gst.h>

/// The instance of every element type registered through this shim: a bin with a pointer back to its
/// Swift implementation.
typedef struct {
    GstBin bin;
    void *swift_object;
} CGStreamerShimBin;

/// The class of every element type registered through this shim.
typedef struct {
    GstBinClass bin_class;
    void *swift_class;
} CGStreamerShimBinClass;

_Static_assert(sizeof(CGStreamerShimBin) >= sizeof(GstBin) + sizeof(void *), "instance layout");

/// The instance of an element type registered as a plain element (no children): a filter, whose own
/// pads do the work. GStreamer's tracers measure such an element; they skip bins.
typedef struct {
    GstElement element;
    void *swift_object;
} CGStreamerShimElement;

typedef struct {
    GstElementClass element_class;
    void *swift_class;
} CGStreamerShimElementClass;

/// The Swift side of every such element. One set for the process, installed once.
typedef struct {
    /// Called from the instance init function: create the children and set `swift_object`.
    void (*instance_init)(GstElement *element, void *swift_class);
    /// Called from finalize, before the parent class's finalize: release `swift_object`.
    void (*finalize)(GstElement *element, void *swift_object);
    void (*set_property)(GstElement *element, void *swift_object, guint property_id, const GValue *value);
    void (*get_property)(GstElement *element, void *swift_object, guint property_id, GValue *value);
    /// Runs the whole state change; call CGStreamerShim_swift_element_parent_change_state for the bin's own part.
    GstStateChangeReturn (*change_state)(GstElement *element, void *swift_object, GstStateChange transition);
    /// An end-of-stream event sent to a plain element (gst_element_send_event): returns 1 when it took
    /// the event and sent it out (a pulled source, out of its pad), -1 when it took it but the pad
    /// refused it (flushing), 0 to leave it to GstElement.
    int (*send_end_of_stream)(GstElement *element, void *swift_object, GstEvent *event);
} CGStreamerShimBinCallbacks;

/// Installs the callbacks. Call once, before registering any type.
void CGStreamerShim_swift_element_set_callbacks(const CGStreamerShimBinCallbacks *callbacks);

/// Registers a GstBin subclass (or, with `plain_element`, a GstElement subclass) named `type_name`
/// with metadata, pad templates (taken, floating refs are sunk) and properties (ids 1...n_pspecs,
/// taken). `swift_class` is stored in the class struct. Returns the new GType, or 0 when a type of
/// that name exists already.
GType CGStreamerShim_swift_element_register_type(const char *type_name, const char *longname, const char *klass,
                                       const char *description, const char *author,
                                       GstPadTemplate **templates, guint n_templates,
                                       GParamSpec **pspecs, guint n_pspecs, void *swift_class,
                                       gboolean plain_element);

/// The parent class's part of a state change (GstBin's or GstElement's), for use inside the
/// change_state callback.
GstStateChangeReturn CGStreamerShim_swift_element_parent_change_state(GstElement *element, GstStateChange transition);

/// The Swift object of an element registered through this shim, or NULL for any other element.
void *CGStreamerShim_swift_element_swift_object(GstElement *element);
void CGStreamerShim_swift_element_set_swift_object(GstElement *element, void *swift_object);

#endif
