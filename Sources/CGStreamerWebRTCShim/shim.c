// GStreamer 1.22 marks the WebRTC library "unstable API" and warns on every include unless told that
// its users know; this shim is the one place that uses it, and CI fails on any warning.
#define GST_USE_UNSTABLE_API
#include "CGStreamerWebRTCShim.h"
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>

/// What a promise's reply is handed to: the caller's callback and context, and for create-answer the
/// field of the reply that holds the session description.
typedef struct {
    CGStreamerWebRTCShimDone done;
    void *context;
    const char *description_field;  // "answer", or NULL when the reply carries none
} Step;

static Step *step_new(CGStreamerWebRTCShimDone done, void *context, const char *description_field) {
    Step *step = g_new0(Step, 1);
    step->done = done;
    step->context = context;
    step->description_field = description_field;
    return step;
}

/// The reply of any of webrtcbin's promises: an "error" field (a GError) when the step failed, else
/// the session description asked for, if any.
static void promise_replied(GstPromise *promise, gpointer data) {
    Step *step = data;
    if (gst_promise_wait(promise) != GST_PROMISE_RESULT_REPLIED) {
        step->done(step->context, NULL, "webrtcbin gave no answer (it is shutting down)");
        return;
    }
    const GstStructure *reply = gst_promise_get_reply(promise);
    if (reply && gst_structure_has_field(reply, "error")) {
        GError *error = NULL;
        gst_structure_get(reply, "error", G_TYPE_ERROR, &error, NULL);
        step->done(step->context, NULL, error ? error->message : "webrtcbin refused it");
        g_clear_error(&error);
        return;
    }
    if (!step->description_field) {
        step->done(step->context, NULL, NULL);
        return;
    }
    GstWebRTCSessionDescription *description = NULL;
    if (reply) {
        gst_structure_get(reply, step->description_field, GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &description, NULL);
    }
    if (!description) {
        step->done(step->context, NULL, "webrtcbin made no session description");
        return;
    }
    gchar *text = gst_sdp_message_as_text(description->sdp);
    step->done(step->context, text, NULL);
    g_free(text);
    gst_webrtc_session_description_free(description);
}

/// The text as a session description of `type`, or NULL (with `done` called) when it is not SDP.
static GstWebRTCSessionDescription *parse(const char *sdp, GstWebRTCSDPType type, CGStreamerWebRTCShimDone done,
                                          void *context) {
    GstSDPMessage *message = NULL;
    if (gst_sdp_message_new_from_text(sdp, &message) != GST_SDP_OK) {
        if (message) gst_sdp_message_free(message);
        done(context, NULL, "the session description cannot be parsed as SDP");
        return NULL;
    }
    return gst_webrtc_session_description_new(type, message);
}

/// Emits `signal` (set-remote-description or set-local-description) with `description` and a promise.
static void set_description(GstElement *webrtcbin, const char *signal, GstWebRTCSessionDescription *description,
                            CGStreamerWebRTCShimDone done, void *context) {
    GstPromise *promise = gst_promise_new_with_change_func(promise_replied, step_new(done, context, NULL), g_free);
    g_signal_emit_by_name(webrtcbin, signal, description, promise);
    gst_promise_unref(promise);
    gst_webrtc_session_description_free(description);
}

void CGStreamerWebRTCShim_set_remote_offer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                           void *context) {
    GstWebRTCSessionDescription *offer = parse(sdp, GST_WEBRTC_SDP_TYPE_OFFER, done, context);
    if (offer) set_description(webrtcbin, "set-remote-description", offer, done, context);
}

void CGStreamerWebRTCShim_create_answer(GstElement *webrtcbin, CGStreamerWebRTCShimDone done, void *context) {
    GstPromise *promise = gst_promise_new_with_change_func(promise_replied, step_new(done, context, "answer"), g_free);
    g_signal_emit_by_name(webrtcbin, "create-answer", NULL, promise);
    gst_promise_unref(promise);
}

void CGStreamerWebRTCShim_set_local_answer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                           void *context) {
    GstWebRTCSessionDescription *answer = parse(sdp, GST_WEBRTC_SDP_TYPE_ANSWER, done, context);
    if (answer) set_description(webrtcbin, "set-local-description", answer, done, context);
}

char *CGStreamerWebRTCShim_local_description(GstElement *webrtcbin) {
    GstWebRTCSessionDescription *description = NULL;
    g_object_get(webrtcbin, "local-description", &description, NULL);
    if (!description) return NULL;
    gchar *text = gst_sdp_message_as_text(description->sdp);
    gst_webrtc_session_description_free(description);
    return text;
}

gboolean CGStreamerWebRTCShim_add_local_address(GstElement *webrtcbin, const char *address) {
    GstObject *agent = NULL;
    g_object_get(webrtcbin, "ice-agent", &agent, NULL);
    if (!agent) return FALSE;
    gboolean added = FALSE;
    g_signal_emit_by_name(agent, "add-local-ip-address", address, &added);
    gst_object_unref(agent);
    return added;
}

void CGStreamerWebRTCShim_create_offer(GstElement *webrtcbin, CGStreamerWebRTCShimDone done, void *context) {
    GstPromise *promise = gst_promise_new_with_change_func(promise_replied, step_new(done, context, "offer"), g_free);
    g_signal_emit_by_name(webrtcbin, "create-offer", NULL, promise);
    gst_promise_unref(promise);
}

/// Parses `sdp` as a description of `type` and emits `signal` with it (or calls `done` with the reason).
static void set_text(GstElement *webrtcbin, const char *signal, GstWebRTCSDPType type, const char *sdp,
                     CGStreamerWebRTCShimDone done, void *context) {
    GstWebRTCSessionDescription *description = parse(sdp, type, done, context);
    if (description) set_description(webrtcbin, signal, description, done, context);
}

void CGStreamerWebRTCShim_set_local_offer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                          void *context) {
    set_text(webrtcbin, "set-local-description", GST_WEBRTC_SDP_TYPE_OFFER, sdp, done, context);
}

void CGStreamerWebRTCShim_set_remote_answer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                            void *context) {
    set_text(webrtcbin, "set-remote-description", GST_WEBRTC_SDP_TYPE_ANSWER, sdp, done, context);
}

gboolean CGStreamerWebRTCShim_add_receiver(GstElement *webrtcbin, const char *caps) {
    GstCaps *codecs = gst_caps_from_string(caps);
    if (!codecs) return FALSE;
    GstWebRTCRTPTransceiver *transceiver = NULL;
    g_signal_emit_by_name(webrtcbin, "add-transceiver", GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, codecs,
                          &transceiver);
    gst_caps_unref(codecs);
    if (!transceiver) return FALSE;
    gst_object_unref(transceiver);
    return TRUE;
}

int CGStreamerWebRTCShim_send_only(GstElement *webrtcbin) {
    GArray *transceivers = NULL;
    g_signal_emit_by_name(webrtcbin, "get-transceivers", &transceivers);
    if (!transceivers) return 0;
    int changed = (int)transceivers->len;
    for (guint index = 0; index < transceivers->len; index++) {
        GstWebRTCRTPTransceiver *transceiver = g_array_index(transceivers, GstWebRTCRTPTransceiver *, index);
        g_object_set(transceiver, "direction", GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_SENDONLY, NULL);
    }
    g_array_unref(transceivers);
    return changed;
}
