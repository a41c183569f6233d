// Signals: connecting a Swift callback to any GObject signal.
#include "CGStreamerShimSignals.h"

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
    // Acquires what the connecting thread released with the callback (see the store below).
    CGStreamerShimSignalCallback callback = __atomic_load_n(&self->callback, __ATOMIC_ACQUIRE);
    callback(self->data, return_value, n_param_values, param_values);
}

static void swift_closure_finalize(gpointer notify_data, GClosure *closure) {
    (void)notify_data;
    SwiftClosure *self = (SwiftClosure *)closure;
    if (self->destroy != NULL) {
        self->destroy(self->data);
    }
}

// g_signal_connect_closure_by_id with a GClosure of our own (g_closure_new_simple, a struct whose first
// member is the GClosure) and a marshaller that hands the GValues over as they are: one C entry for
// signals of any signature, which Swift cannot give g_signal_connect (a macro over
// g_signal_connect_data, whose callback C calls with the signal's own arguments, variadic in effect).
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
    self->data = data;
    self->destroy = destroy;
    // The signal may be emitted on another thread at once. GObject's signal lock orders these writes
    // before that emission, but it is a futex ThreadSanitizer does not see; a release store, which it
    // does see, says the same.
    __atomic_store_n(&self->callback, callback, __ATOMIC_RELEASE);
    g_closure_set_marshal(closure, swift_closure_marshal);
    g_closure_add_finalize_notifier(closure, NULL, swift_closure_finalize);
    return g_signal_connect_closure_by_id(instance, signal_id, detail, closure, after);
}
