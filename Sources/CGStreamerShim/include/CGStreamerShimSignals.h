// Signals: connecting a Swift callback to any GObject signal (signals.c).
#ifndef CGSTREAMER_SHIM_SIGNALS_H
#define CGSTREAMER_SHIM_SIGNALS_H

#include <gst/gst.h>

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

#endif
