// The GType of every element written in Swift: a GstBin subclass (sources and sinks, around an appsrc
// or an appsink) or a GstElement subclass (filters and pulled sources, with pads of their own), whose
// instance keeps a pointer to its Swift object and whose class calls into Swift through one set of
// callbacks. C because a GObject type is made of C structs: an instance struct and a class struct
// that embed the parent's as their first member, a class_init that fills the parent's function table,
// and the parent class's functions called from ours; Swift cannot lay these out or cast between them.
#include "CGStreamerShimSwiftElement.h"

static CGStreamerShimBinCallbacks swift_callbacks;
// Set by each Swift element class's class_init (on the thread that first makes one of its elements) and read by
// every instance's chain-ups on streaming threads: atomically, since two classes may be initialized while
// elements of a third already run.
static GstElementClass *bin_parent_class_pointer = NULL;
static GstElementClass *element_parent_class_pointer = NULL;

static GstElementClass *bin_parent_class(void) { return g_atomic_pointer_get(&bin_parent_class_pointer); }
static GstElementClass *element_parent_class(void) { return g_atomic_pointer_get(&element_parent_class_pointer); }

// Where an instance keeps its Swift object: bins and plain elements lay it out after their parent.
static void **swift_object_slot(gpointer instance) {
    return GST_IS_BIN(instance) ? &((CGStreamerShimBin *)instance)->swift_object
                                : &((CGStreamerShimElement *)instance)->swift_object;
}

static GstElementClass *parent_class_of(gpointer instance) {
    return GST_IS_BIN(instance) ? bin_parent_class() : element_parent_class();
}

typedef struct {
    char *longname, *klass, *description, *author;
    GstPadTemplate **templates;
    guint n_templates;
    GParamSpec **pspecs;
    guint n_pspecs;
    void *swift_class;
} ClassData;

// Keeps the Swift callbacks that the class functions below call (GObject's vtable functions take no
// user data, so they are kept here, once for the process).
void CGStreamerShim_swift_element_set_callbacks(const CGStreamerShimBinCallbacks *callbacks) {
    swift_callbacks = *callbacks;
}

static void swift_element_set_property(GObject *object, guint property_id, const GValue *value, GParamSpec *pspec) {
    (void)pspec;
    swift_callbacks.set_property(GST_ELEMENT(object), *swift_object_slot(object), property_id, value);
}

static void swift_element_get_property(GObject *object, guint property_id, GValue *value, GParamSpec *pspec) {
    (void)pspec;
    swift_callbacks.get_property(GST_ELEMENT(object), *swift_object_slot(object), property_id, value);
}

static void swift_element_finalize(GObject *object) {
    void **slot = swift_object_slot(object);
    if (*slot != NULL) {
        swift_callbacks.finalize(GST_ELEMENT(object), *slot);
        *slot = NULL;
    }
    G_OBJECT_CLASS(parent_class_of(object))->finalize(object);
}

static GstStateChangeReturn swift_element_change_state(GstElement *element, GstStateChange transition) {
    return swift_callbacks.change_state(element, *swift_object_slot(element), transition);
}

// The parent class's change_state (GstBin's or GstElement's), reached through its class struct: C, as
// the chain-up to a parent class's function is (GST_ELEMENT_CLASS(parent_class)->change_state).
GstStateChangeReturn CGStreamerShim_swift_element_parent_change_state(GstElement *element, GstStateChange transition) {
    return parent_class_of(element)->change_state(element, transition);
}

// An event sent to a plain element: end of stream to a pulled source goes to Swift, which sends it out of
// the source pad in its place among the buffers, as basesrc does with the end of stream an application
// sends (gst_element_send_event on the pipeline, as gstpipe does on Ctrl-C). GstElement's own handler
// sends a downstream event into a sink pad, and drops it for an element that has none.
static gboolean swift_element_send_event(GstElement *element, GstEvent *event) {
    void *object = *swift_object_slot(element);
    if (object != NULL && GST_EVENT_TYPE(event) == GST_EVENT_EOS && swift_callbacks.send_end_of_stream != NULL) {
        int taken = swift_callbacks.send_end_of_stream(element, object, event);
        if (taken != 0) {
            return taken > 0;
        }
    }
    return element_parent_class()->send_event(element, event);
}

// A Swift element is one element to the rest of the pipeline: what its inner appsrc and appsink post
// comes from it. Their state changes are dropped (the bin posts its own); tags, element messages,
// warnings, QoS, latency and the like are re-addressed to the bin. Errors keep their source, as
// GstBin's own handling of an error from a child needs it (the Swift bus names the element); so do
// the messages GstBin reads itself (EOS, async, clock, stream-start, segment-done).
static void swift_element_handle_message(GstBin *bin, GstMessage *message) {
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
    GST_BIN_CLASS(bin_parent_class())->handle_message(bin, message);
}

static void swift_element_class_init(gpointer g_class, gpointer class_data) {
    ClassData *data = class_data;
    GObjectClass *object_class = G_OBJECT_CLASS(g_class);
    GstElementClass *element_class = GST_ELEMENT_CLASS(g_class);

    if (GST_IS_BIN_CLASS(g_class)) {
        g_atomic_pointer_set(&bin_parent_class_pointer, g_type_class_peek(GST_TYPE_BIN));
        ((CGStreamerShimBinClass *)g_class)->swift_class = data->swift_class;
        GST_BIN_CLASS(g_class)->handle_message = swift_element_handle_message;
    } else {
        g_atomic_pointer_set(&element_parent_class_pointer, g_type_class_peek(GST_TYPE_ELEMENT));
        ((CGStreamerShimElementClass *)g_class)->swift_class = data->swift_class;
        element_class->send_event = swift_element_send_event;
    }
    object_class->set_property = swift_element_set_property;
    object_class->get_property = swift_element_get_property;
    object_class->finalize = swift_element_finalize;
    element_class->change_state = swift_element_change_state;

    gst_element_class_set_metadata(element_class, data->longname, data->klass, data->description, data->author);
    for (guint i = 0; i < data->n_templates; i++) {
        gst_element_class_add_pad_template(element_class, data->templates[i]);
    }
    for (guint i = 0; i < data->n_pspecs; i++) {
        g_object_class_install_property(object_class, i + 1, data->pspecs[i]);
    }
}

static void swift_element_instance_init(GTypeInstance *instance, gpointer g_class) {
    void *swift_class = GST_IS_BIN_CLASS(g_class) ? ((CGStreamerShimBinClass *)g_class)->swift_class
                                                  : ((CGStreamerShimElementClass *)g_class)->swift_class;
    *swift_object_slot(instance) = NULL;
    swift_callbacks.instance_init(GST_ELEMENT(instance), swift_class);
}

// g_type_register_static with the GTypeInfo of a Swift element type: the sizes of the class and instance
// structs above and their init functions, which only C can give.
GType CGStreamerShim_swift_element_register_type(const char *type_name, const char *longname, const char *klass,
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
        .class_init = swift_element_class_init,
        .class_data = data,
        .instance_size = plain_element ? sizeof(CGStreamerShimElement) : sizeof(CGStreamerShimBin),
        .instance_init = swift_element_instance_init,
    };
    return g_type_register_static(plain_element ? GST_TYPE_ELEMENT : GST_TYPE_BIN, type_name, &info, 0);
}

// The instance struct's swift_object field, for elements of a type registered here: C for the cast to
// the instance struct and G_OBJECT_GET_CLASS (a macro) to tell such an element from others.
void *CGStreamerShim_swift_element_swift_object(GstElement *element) {
    // Only types registered here finalize with swift_element_finalize, and none of them is subclassed.
    if (G_OBJECT_CLASS(G_OBJECT_GET_CLASS(element))->finalize != swift_element_finalize) {
        return NULL;
    }
    return *swift_object_slot(element);
}

// Sets the instance struct's swift_object field (a cast to the instance struct).
void CGStreamerShim_swift_element_set_swift_object(GstElement *element, void *swift_object) {
    *swift_object_slot(element) = swift_object;
}
