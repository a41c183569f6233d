// The few things Swift cannot call directly: GObject macros and casts, variadic calls,
// and GType registration for elements whose behaviour lives in Swift.
#ifndef CGSTREAMER_SHIM_H_PUBLIC
#define CGSTREAMER_SHIM_H_PUBLIC

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

// MARK: Types that are macros in C

GType CGStreamerShim_type_boolean(void);
GType CGStreamerShim_type_int(void);
GType CGStreamerShim_type_uint(void);
GType CGStreamerShim_type_int64(void);
GType CGStreamerShim_type_uint64(void);
GType CGStreamerShim_type_double(void);
GType CGStreamerShim_type_float(void);
GType CGStreamerShim_type_string(void);
GType CGStreamerShim_type_long(void);
GType CGStreamerShim_type_ulong(void);
GType CGStreamerShim_type_enum(void);
GType CGStreamerShim_type_caps(void);
GType CGStreamerShim_type_fraction(void);

/// `G_OBJECT_TYPE(object)`.
GType CGStreamerShim_object_type(gpointer object);
/// `g_object_class_find_property(G_OBJECT_GET_CLASS(object), name)`.
GParamSpec *CGStreamerShim_object_find_property(gpointer object, const char *name);
/// All properties of an object's class; free the array with g_free.
GParamSpec **CGStreamerShim_object_list_properties(gpointer object, guint *count);
/// `GST_IS_BIN(object)`.
gboolean CGStreamerShim_is_bin(gpointer object);
/// `G_PARAM_SPEC_VALUE_TYPE(pspec)` and the numeric bounds of the common spec types.
GType CGStreamerShim_param_spec_value_type(GParamSpec *pspec);
/// `gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), name)`.
GstPadTemplate *CGStreamerShim_element_get_pad_template(GstElement *element, const char *name);
/// The factory of an element's class, or NULL.
GstElementFactory *CGStreamerShim_element_get_factory(GstElement *element);
/// Posts an error message from `element`, as GST_ELEMENT_ERROR does (GST_STREAM_ERROR_FAILED or
/// GST_CORE_ERROR_STATE_CHANGE when `state_change` is true).
void CGStreamerShim_element_post_error(GstElement *element, gboolean state_change, const char *text,
                                       const char *debug);
/// Posts a warning message from `element`, as GST_ELEMENT_WARNING does.
void CGStreamerShim_element_post_warning(GstElement *element, const char *text, const char *debug);

/// Sets a property from its string form, as gst-launch does (`gst_util_set_object_arg`).
gboolean CGStreamerShim_object_set_from_string(gpointer object, const char *name, const char *value);

// MARK: Video

/// Height in rows of plane `plane` (GST_VIDEO_INFO_COMP_HEIGHT of its first component).
gint CGStreamerShim_video_info_plane_height(const GstVideoInfo *info, guint plane);
/// Bytes of pixel data in one row of plane `plane`, without padding
/// (GST_VIDEO_INFO_COMP_WIDTH * GST_VIDEO_INFO_COMP_PSTRIDE of its first component).
gint CGStreamerShim_video_info_plane_row_bytes(const GstVideoInfo *info, guint plane);
/// `GST_VIDEO_INFO_IS_YUV`, `_IS_RGB`, `_IS_GRAY`.
gboolean CGStreamerShim_video_info_is_yuv(const GstVideoInfo *info);
gboolean CGStreamerShim_video_info_is_rgb(const GstVideoInfo *info);
/// `GST_VIDEO_INFO_N_PLANES`.
guint CGStreamerShim_video_info_n_planes(const GstVideoInfo *info);
/// Plane data pointer and stride of a mapped frame.
void *CGStreamerShim_video_frame_plane_data(GstVideoFrame *frame, guint plane);
gint CGStreamerShim_video_frame_plane_stride(GstVideoFrame *frame, guint plane);
/// Rewrites every raw video buffer that passes `pad` into tightly packed planes (rows without the
/// padding GStreamer's default layout adds for odd widths), with a GstVideoMeta saying so. Buffers
/// already packed pass untouched.
void CGStreamerShim_pad_pack_video_buffers(GstPad *pad);
/// `gst_buffer_is_writable` (a macro).
gboolean CGStreamerShim_buffer_is_writable(GstBuffer *buffer);
/// Makes `buffer` as new again (no timestamps, offsets or flags) when nobody else holds it or its one
/// block of `size` bytes and it carries no metadata, as a buffer pool resets a buffer coming back;
/// FALSE, the buffer untouched, otherwise.
gboolean CGStreamerShim_buffer_recycle(GstBuffer *buffer, gsize size);

// MARK: Elements implemented in Swift

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
    /// Runs the whole state change; call CGStreamerShim_bin_parent_change_state for the bin's own part.
    GstStateChangeReturn (*change_state)(GstElement *element, void *swift_object, GstStateChange transition);
} CGStreamerShimBinCallbacks;

/// Installs the callbacks. Call once, before registering any type.
void CGStreamerShim_bin_set_callbacks(const CGStreamerShimBinCallbacks *callbacks);

/// Registers a GstBin subclass (or, with `plain_element`, a GstElement subclass) named `type_name`
/// with metadata, pad templates (taken, floating refs are sunk) and properties (ids 1...n_pspecs,
/// taken). `swift_class` is stored in the class struct. Returns the new GType, or 0 when a type of
/// that name exists already.
GType CGStreamerShim_bin_register_type(const char *type_name, const char *longname, const char *klass,
                                       const char *description, const char *author,
                                       GstPadTemplate **templates, guint n_templates,
                                       GParamSpec **pspecs, guint n_pspecs, void *swift_class,
                                       gboolean plain_element);

/// The parent class's part of a state change (GstBin's or GstElement's), for use inside the
/// change_state callback.
GstStateChangeReturn CGStreamerShim_bin_parent_change_state(GstElement *element, GstStateChange transition);

/// The Swift object of an element registered through this shim, or NULL for any other element.
void *CGStreamerShim_bin_swift_object(GstElement *element);
void CGStreamerShim_bin_set_swift_object(GstElement *element, void *swift_object);

// MARK: Signals and pads

GType CGStreamerShim_type_none(void);
GType CGStreamerShim_type_object(void);
GType CGStreamerShim_type_boxed(void);
GType CGStreamerShim_type_pointer(void);
GType CGStreamerShim_type_flags(void);
GType CGStreamerShim_type_char(void);
GType CGStreamerShim_type_uchar(void);
GType CGStreamerShim_type_param(void);

/// Called for each emission of a signal connected through CGStreamerShim_signal_connect:
/// `params[0]` is the instance, `return_value` is NULL or initialized to the signal's return type.
typedef void (*CGStreamerShimSignalCallback)(void *data, GValue *return_value, guint n_params,
                                             const GValue *params);

/// Connects `callback` to `detailed_signal` of `instance` through a GClosure whose marshaller hands
/// the GValues over as they are; `destroy(data)` runs when the closure is finalized (disconnect or
/// the instance's end). Returns the handler id, 0 when the instance has no such signal.
gulong CGStreamerShim_signal_connect(gpointer instance, const char *detailed_signal,
                                     CGStreamerShimSignalCallback callback, void *data,
                                     GDestroyNotify destroy, gboolean after);

/// Sets a property from its string form like gst_util_set_object_arg, but says why it did not:
/// 0 set (GLib may still have refused the value with a warning), 1 no such property, 2 not
/// writable, 3 the string does not parse as the property's type.
int CGStreamerShim_object_set_from_string_checked(gpointer object, const char *name, const char *value);

/// `GST_PAD_PROBE_INFO_DATA(info) = data`.
void CGStreamerShim_pad_probe_info_set_data(GstPadProbeInfo *info, gpointer data);

/// `gst_event_writable_structure` / `gst_query_writable_structure` are functions; the writability
/// checks around them are macros.
gboolean CGStreamerShim_query_is_writable(GstQuery *query);
/// `gst_buffer_make_writable` (a macro).
GstBuffer *CGStreamerShim_buffer_make_writable(GstBuffer *buffer);
/// `GST_EVENT_TYPE_NAME`, `GST_QUERY_TYPE_NAME`.
const char *CGStreamerShim_event_type_name(GstEvent *event);
const char *CGStreamerShim_query_type_name(GstQuery *query);

#endif
