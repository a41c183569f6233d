#include "CGStreamerShim.h"

#include <string.h>

GType CGStreamerShim_type_boolean(void) { return G_TYPE_BOOLEAN; }
GType CGStreamerShim_type_int(void) { return G_TYPE_INT; }
GType CGStreamerShim_type_uint(void) { return G_TYPE_UINT; }
GType CGStreamerShim_type_int64(void) { return G_TYPE_INT64; }
GType CGStreamerShim_type_uint64(void) { return G_TYPE_UINT64; }
GType CGStreamerShim_type_double(void) { return G_TYPE_DOUBLE; }
GType CGStreamerShim_type_float(void) { return G_TYPE_FLOAT; }
GType CGStreamerShim_type_string(void) { return G_TYPE_STRING; }
GType CGStreamerShim_type_long(void) { return G_TYPE_LONG; }
GType CGStreamerShim_type_ulong(void) { return G_TYPE_ULONG; }
GType CGStreamerShim_type_enum(void) { return G_TYPE_ENUM; }
GType CGStreamerShim_type_caps(void) { return GST_TYPE_CAPS; }
GType CGStreamerShim_type_fraction(void) { return GST_TYPE_FRACTION; }

GType CGStreamerShim_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

GParamSpec *CGStreamerShim_object_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

GParamSpec **CGStreamerShim_object_list_properties(gpointer object, guint *count) {
    return g_object_class_list_properties(G_OBJECT_GET_CLASS(object), count);
}

gboolean CGStreamerShim_is_bin(gpointer object) { return GST_IS_BIN(object); }

GType CGStreamerShim_param_spec_value_type(GParamSpec *pspec) { return G_PARAM_SPEC_VALUE_TYPE(pspec); }

GstPadTemplate *CGStreamerShim_element_get_pad_template(GstElement *element, const char *name) {
    return gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), name);
}

GstElementFactory *CGStreamerShim_element_get_factory(GstElement *element) {
    return gst_element_get_factory(element);
}

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

void CGStreamerShim_element_post_warning(GstElement *element, const char *text, const char *debug) {
    gst_element_message_full(element, GST_MESSAGE_WARNING, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                             g_strdup(text), debug ? g_strdup(debug) : NULL, __FILE__, G_STRFUNC, __LINE__);
}

gboolean CGStreamerShim_object_set_from_string(gpointer object, const char *name, const char *value) {
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) == NULL) {
        return FALSE;
    }
    gst_util_set_object_arg(G_OBJECT(object), name, value);
    return TRUE;
}

// MARK: Video

static gint first_component_of_plane(const GstVideoInfo *info, guint plane) {
    for (guint comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS(info); comp++) {
        if (GST_VIDEO_INFO_COMP_PLANE(info, comp) == plane) {
            return comp;
        }
    }
    return -1;
}

gint CGStreamerShim_video_info_plane_height(const GstVideoInfo *info, guint plane) {
    gint comp = first_component_of_plane(info, plane);
    return comp < 0 ? 0 : GST_VIDEO_INFO_COMP_HEIGHT(info, comp);
}

gint CGStreamerShim_video_info_plane_row_bytes(const GstVideoInfo *info, guint plane) {
    gint comp = first_component_of_plane(info, plane);
    if (comp < 0) {
        return 0;
    }
    return GST_VIDEO_INFO_COMP_WIDTH(info, comp) * GST_VIDEO_INFO_COMP_PSTRIDE(info, comp);
}

gboolean CGStreamerShim_video_info_is_yuv(const GstVideoInfo *info) { return GST_VIDEO_INFO_IS_YUV(info); }
gboolean CGStreamerShim_video_info_is_rgb(const GstVideoInfo *info) { return GST_VIDEO_INFO_IS_RGB(info); }
guint CGStreamerShim_video_info_n_planes(const GstVideoInfo *info) { return GST_VIDEO_INFO_N_PLANES(info); }

void *CGStreamerShim_video_frame_plane_data(GstVideoFrame *frame, guint plane) {
    return GST_VIDEO_FRAME_PLANE_DATA(frame, plane);
}

gint CGStreamerShim_video_frame_plane_stride(GstVideoFrame *frame, guint plane) {
    return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane);
}

gboolean CGStreamerShim_buffer_is_writable(GstBuffer *buffer) { return gst_buffer_is_writable(buffer); }

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

/// A packed copy of `buffer` laid out as `info` says, or NULL when it is packed already (or unreadable).
static GstBuffer *packed_video_buffer(GstBuffer *buffer, GstVideoInfo *info) {
    guint planes = GST_VIDEO_INFO_N_PLANES(info);
    GstVideoMeta *meta = gst_buffer_get_video_meta(buffer);
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {0};
    gsize size = 0;
    gboolean packed = TRUE;
    for (guint plane = 0; plane < planes; plane++) {
        strides[plane] = CGStreamerShim_video_info_plane_row_bytes(info, plane);
        offsets[plane] = size;
        size += (gsize)strides[plane] * CGStreamerShim_video_info_plane_height(info, plane);
        gsize offset = meta ? meta->offset[plane] : GST_VIDEO_INFO_PLANE_OFFSET(info, plane);
        gint stride = meta ? meta->stride[plane] : GST_VIDEO_INFO_PLANE_STRIDE(info, plane);
        packed = packed && offset == offsets[plane] && stride == strides[plane];
    }
    if (packed) {
        return NULL;
    }
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, info, buffer, GST_MAP_READ)) {
        return NULL;
    }
    GstBuffer *result = gst_buffer_new_allocate(NULL, size, NULL);
    GstMapInfo map;
    if (result == NULL || !gst_buffer_map(result, &map, GST_MAP_WRITE)) {
        gst_video_frame_unmap(&frame);
        if (result != NULL) {
            gst_buffer_unref(result);
        }
        return NULL;
    }
    for (guint plane = 0; plane < planes; plane++) {
        const guint8 *source = GST_VIDEO_FRAME_PLANE_DATA(&frame, plane);
        gint sourceStride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
        gint rows = CGStreamerShim_video_info_plane_height(info, plane);
        for (gint row = 0; row < rows; row++) {
            memcpy(map.data + offsets[plane] + (gsize)row * strides[plane], source + (gsize)row * sourceStride,
                   strides[plane]);
        }
    }
    gst_buffer_unmap(result, &map);
    gst_video_frame_unmap(&frame);
    gst_buffer_copy_into(result, buffer, GST_BUFFER_COPY_FLAGS | GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
    gst_buffer_add_video_meta_full(result, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(info),
                                   GST_VIDEO_INFO_WIDTH(info), GST_VIDEO_INFO_HEIGHT(info), planes, offsets, strides);
    return result;
}

static GstPadProbeReturn pack_video_buffer_probe(GstPad *pad, GstPadProbeInfo *probe, gpointer user_data) {
    (void)user_data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps == NULL) {
        return GST_PAD_PROBE_OK;
    }
    GstVideoInfo info;
    gboolean known = gst_video_info_from_caps(&info, caps);
    gst_caps_unref(caps);
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(probe);
    GstBuffer *packed = known && buffer != NULL ? packed_video_buffer(buffer, &info) : NULL;
    if (packed != NULL) {
        gst_buffer_unref(buffer);
        GST_PAD_PROBE_INFO_DATA(probe) = packed;
    }
    return GST_PAD_PROBE_OK;
}

void CGStreamerShim_pad_pack_video_buffers(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pack_video_buffer_probe, NULL, NULL);
}

// MARK: Elements implemented in Swift

static CGStreamerShimBinCallbacks swift_callbacks;
static GstElementClass *bin_parent_class = NULL;
static GstElementClass *element_parent_class = NULL;

/// Where an instance keeps its Swift object: bins and plain elements lay it out after their parent.
static void **swift_object_slot(gpointer instance) {
    return GST_IS_BIN(instance) ? &((CGStreamerShimBin *)instance)->swift_object
                                : &((CGStreamerShimElement *)instance)->swift_object;
}

static GstElementClass *parent_class_of(gpointer instance) {
    return GST_IS_BIN(instance) ? bin_parent_class : element_parent_class;
}

typedef struct {
    char *longname, *klass, *description, *author;
    GstPadTemplate **templates;
    guint n_templates;
    GParamSpec **pspecs;
    guint n_pspecs;
    void *swift_class;
} ClassData;

void CGStreamerShim_bin_set_callbacks(const CGStreamerShimBinCallbacks *callbacks) {
    swift_callbacks = *callbacks;
}

static void swift_bin_set_property(GObject *object, guint property_id, const GValue *value, GParamSpec *pspec) {
    (void)pspec;
    swift_callbacks.set_property(GST_ELEMENT(object), *swift_object_slot(object), property_id, value);
}

static void swift_bin_get_property(GObject *object, guint property_id, GValue *value, GParamSpec *pspec) {
    (void)pspec;
    swift_callbacks.get_property(GST_ELEMENT(object), *swift_object_slot(object), property_id, value);
}

static void swift_bin_finalize(GObject *object) {
    void **slot = swift_object_slot(object);
    if (*slot != NULL) {
        swift_callbacks.finalize(GST_ELEMENT(object), *slot);
        *slot = NULL;
    }
    G_OBJECT_CLASS(parent_class_of(object))->finalize(object);
}

static GstStateChangeReturn swift_bin_change_state(GstElement *element, GstStateChange transition) {
    return swift_callbacks.change_state(element, *swift_object_slot(element), transition);
}

GstStateChangeReturn CGStreamerShim_bin_parent_change_state(GstElement *element, GstStateChange transition) {
    return parent_class_of(element)->change_state(element, transition);
}

// A Swift element is one element to the rest of the pipeline: what its inner appsrc and appsink post
// comes from it. Their state changes are dropped (the bin posts its own); tags, element messages,
// warnings, QoS, latency and the like are re-addressed to the bin. Errors keep their source, as
// GstBin's own handling of an error from a child needs it (the Swift bus names the element); so do
// the messages GstBin reads itself (EOS, async, clock, stream-start, segment-done).
static void swift_bin_handle_message(GstBin *bin, GstMessage *message) {
    GstObject *source = GST_MESSAGE_SRC(message);
    if (source != NULL && GST_IS_ELEMENT(source) && GST_OBJECT_PARENT(source) == GST_OBJECT_CAST(bin)) {
        switch (GST_MESSAGE_TYPE(message)) {
        case GST_MESSAGE_STATE_CHANGED:
            gst_message_unref(message);
            return;
        case GST_MESSAGE_TAG:
        case GST_MESSAGE_ELEMENT:
        case GST_MESSAGE_WARNING:
        case GST_MESSAGE_INFO:
        case GST_MESSAGE_QOS:
        case GST_MESSAGE_BUFFERING:
        case GST_MESSAGE_PROGRESS:
        case GST_MESSAGE_LATENCY:
        case GST_MESSAGE_REQUEST_STATE:
        case GST_MESSAGE_STEP_START:
        case GST_MESSAGE_STEP_DONE:
        case GST_MESSAGE_TOC:
        case GST_MESSAGE_PROPERTY_NOTIFY:
            message = gst_message_make_writable(message);
            gst_object_replace(&GST_MESSAGE_SRC(message), GST_OBJECT_CAST(bin));
            break;
        default:
            break;
        }
    }
    GST_BIN_CLASS(bin_parent_class)->handle_message(bin, message);
}

static void swift_bin_class_init(gpointer g_class, gpointer class_data) {
    ClassData *data = class_data;
    GObjectClass *object_class = G_OBJECT_CLASS(g_class);
    GstElementClass *element_class = GST_ELEMENT_CLASS(g_class);

    if (GST_IS_BIN_CLASS(g_class)) {
        bin_parent_class = g_type_class_peek(GST_TYPE_BIN);
        ((CGStreamerShimBinClass *)g_class)->swift_class = data->swift_class;
        GST_BIN_CLASS(g_class)->handle_message = swift_bin_handle_message;
    } else {
        element_parent_class = g_type_class_peek(GST_TYPE_ELEMENT);
        ((CGStreamerShimElementClass *)g_class)->swift_class = data->swift_class;
    }
    object_class->set_property = swift_bin_set_property;
    object_class->get_property = swift_bin_get_property;
    object_class->finalize = swift_bin_finalize;
    element_class->change_state = swift_bin_change_state;

    gst_element_class_set_metadata(element_class, data->longname, data->klass, data->description, data->author);
    for (guint i = 0; i < data->n_templates; i++) {
        gst_element_class_add_pad_template(element_class, data->templates[i]);
    }
    for (guint i = 0; i < data->n_pspecs; i++) {
        g_object_class_install_property(object_class, i + 1, data->pspecs[i]);
    }
}

static void swift_bin_instance_init(GTypeInstance *instance, gpointer g_class) {
    void *swift_class = GST_IS_BIN_CLASS(g_class) ? ((CGStreamerShimBinClass *)g_class)->swift_class
                                                  : ((CGStreamerShimElementClass *)g_class)->swift_class;
    *swift_object_slot(instance) = NULL;
    swift_callbacks.instance_init(GST_ELEMENT(instance), swift_class);
}

GType CGStreamerShim_bin_register_type(const char *type_name, const char *longname, const char *klass,
                                       const char *description, const char *author,
                                       GstPadTemplate **templates, guint n_templates,
                                       GParamSpec **pspecs, guint n_pspecs, void *swift_class,
                                       gboolean plain_element) {
    if (g_type_from_name(type_name) != 0) {
        return 0;
    }
    // Lives as long as the type, which is for the rest of the process.
    ClassData *data = g_new0(ClassData, 1);
    data->longname = g_strdup(longname);
    data->klass = g_strdup(klass);
    data->description = g_strdup(description);
    data->author = g_strdup(author);
    data->templates = g_new0(GstPadTemplate *, n_templates + 1);
    for (guint i = 0; i < n_templates; i++) {
        data->templates[i] = templates[i];
    }
    data->n_templates = n_templates;
    data->pspecs = g_new0(GParamSpec *, n_pspecs + 1);
    for (guint i = 0; i < n_pspecs; i++) {
        data->pspecs[i] = g_param_spec_ref_sink(pspecs[i]);
    }
    data->n_pspecs = n_pspecs;
    data->swift_class = swift_class;

    GTypeInfo info = {
        .class_size = plain_element ? sizeof(CGStreamerShimElementClass) : sizeof(CGStreamerShimBinClass),
        .class_init = swift_bin_class_init,
        .class_data = data,
        .instance_size = plain_element ? sizeof(CGStreamerShimElement) : sizeof(CGStreamerShimBin),
        .instance_init = swift_bin_instance_init,
    };
    return g_type_register_static(plain_element ? GST_TYPE_ELEMENT : GST_TYPE_BIN, type_name, &info, 0);
}

void *CGStreamerShim_bin_swift_object(GstElement *element) {
    // Only types registered here finalize with swift_bin_finalize, and none of them is subclassed.
    if (G_OBJECT_CLASS(G_OBJECT_GET_CLASS(element))->finalize != swift_bin_finalize) {
        return NULL;
    }
    return *swift_object_slot(element);
}

void CGStreamerShim_bin_set_swift_object(GstElement *element, void *swift_object) {
    *swift_object_slot(element) = swift_object;
}

// MARK: Signals and pads

GType CGStreamerShim_type_none(void) { return G_TYPE_NONE; }
GType CGStreamerShim_type_object(void) { return G_TYPE_OBJECT; }
GType CGStreamerShim_type_boxed(void) { return G_TYPE_BOXED; }
GType CGStreamerShim_type_pointer(void) { return G_TYPE_POINTER; }
GType CGStreamerShim_type_flags(void) { return G_TYPE_FLAGS; }
GType CGStreamerShim_type_char(void) { return G_TYPE_CHAR; }
GType CGStreamerShim_type_uchar(void) { return G_TYPE_UCHAR; }
GType CGStreamerShim_type_param(void) { return G_TYPE_PARAM; }

typedef struct {
    GClosure closure;
    CGStreamerShimSignalCallback callback;
    void *data;
    GDestroyNotify destroy;
} SwiftClosure;

static void swift_closure_marshal(GClosure *closure, GValue *return_value, guint n_param_values,
                                  const GValue *param_values, gpointer invocation_hint, gpointer marshal_data) {
    (void)invocation_hint;
    (void)marshal_data;
    SwiftClosure *self = (SwiftClosure *)closure;
    self->callback(self->data, return_value, n_param_values, param_values);
}

static void swift_closure_finalize(gpointer notify_data, GClosure *closure) {
    (void)notify_data;
    SwiftClosure *self = (SwiftClosure *)closure;
    if (self->destroy != NULL) {
        self->destroy(self->data);
    }
}

gulong CGStreamerShim_signal_connect(gpointer instance, const char *detailed_signal,
                                     CGStreamerShimSignalCallback callback, void *data,
                                     GDestroyNotify destroy, gboolean after) {
    guint signal_id = 0;
    GQuark detail = 0;
    if (!g_signal_parse_name(detailed_signal, G_OBJECT_TYPE(instance), &signal_id, &detail, TRUE)) {
        if (destroy != NULL) {
            destroy(data);
        }
        return 0;
    }
    GClosure *closure = g_closure_new_simple(sizeof(SwiftClosure), NULL);
    SwiftClosure *self = (SwiftClosure *)closure;
    self->callback = callback;
    self->data = data;
    self->destroy = destroy;
    g_closure_set_marshal(closure, swift_closure_marshal);
    g_closure_add_finalize_notifier(closure, NULL, swift_closure_finalize);
    return g_signal_connect_closure_by_id(instance, signal_id, detail, closure, after);
}

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

void CGStreamerShim_pad_probe_info_set_data(GstPadProbeInfo *info, gpointer data) { GST_PAD_PROBE_INFO_DATA(info) = data; }

gboolean CGStreamerShim_query_is_writable(GstQuery *query) { return gst_query_is_writable(query); }
GstBuffer *CGStreamerShim_buffer_make_writable(GstBuffer *buffer) { return gst_buffer_make_writable(buffer); }
const char *CGStreamerShim_event_type_name(GstEvent *event) { return GST_EVENT_TYPE_NAME(event); }
const char *CGStreamerShim_query_type_name(GstQuery *query) { return GST_QUERY_TYPE_NAME(query); }
