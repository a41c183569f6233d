#ifndef CGSTREAMER_WEBRTC_SHIM_H
#define CGSTREAMER_WEBRTC_SHIM_H
#include <gst/gst.h>

// webrtcbin's negotiation, for the `webrtc://` output's viewers. C because webrtcbin's action signals
// take and return boxed values (GstWebRTCSessionDescription, GstPromise) that the Swift core cannot
// marshal in signal arguments yet (issue 27, item 4 wants that in the core, for every boxed type), and
// because its ICE agent is a GstObject that is no element. Swift sees text (SDP) and callbacks only.

/// Called once when a step of the negotiation has finished, on a thread of webrtcbin's: `sdp` is the
/// session description it made (create-answer) or NULL; `error` says why it failed, NULL on success.
/// Both are valid during the call only.
typedef void (*CGStreamerWebRTCShimDone)(void *context, const char *sdp, const char *error);

/// Parses `sdp` and gives it to webrtcbin as the remote offer: the "set-remote-description" action
/// signal with a GstWebRTCSessionDescription and a GstPromise, whose reply calls `done`. An offer that
/// is not SDP calls `done` at once with the parser's reason.
void CGStreamerWebRTCShim_set_remote_offer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                           void *context);

/// Asks webrtcbin for an answer to the remote offer: the "create-answer" action signal with a
/// GstPromise; `done` gets the answer as SDP text.
void CGStreamerWebRTCShim_create_answer(GstElement *webrtcbin, CGStreamerWebRTCShimDone done, void *context);

/// Parses `sdp` and gives it to webrtcbin as its own answer: "set-local-description", which starts
/// the ICE agent gathering candidates.
void CGStreamerWebRTCShim_set_local_answer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                           void *context);

/// webrtcbin's "local-description" property (a GstWebRTCSessionDescription) as SDP text, with the
/// candidates gathered so far; NULL before set_local_answer. Free it with g_free.
char *CGStreamerWebRTCShim_local_description(GstElement *webrtcbin);

/// Lets the ICE agent offer `address` in its candidates: the "add-local-ip-address" action signal of
/// webrtcbin's "ice-agent" (a GstWebRTCICE). libnice leaves loopback addresses out unless told, and
/// a server on 127.0.0.1 must offer it. FALSE when the agent refuses the address.
gboolean CGStreamerWebRTCShim_add_local_address(GstElement *webrtcbin, const char *address);

// The offering side, for `whip+http://` outputs and `whep+http://` inputs (gstpipe as a WHIP or WHEP
// client): gstpipe makes the offer and the server answers.

/// Asks webrtcbin for an offer: the "create-offer" action signal with a GstPromise; `done` gets the
/// offer as SDP text.
void CGStreamerWebRTCShim_create_offer(GstElement *webrtcbin, CGStreamerWebRTCShimDone done, void *context);

/// Parses `sdp` and gives it to webrtcbin as its own offer ("set-local-description"), which starts
/// the ICE agent gathering candidates.
void CGStreamerWebRTCShim_set_local_offer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                          void *context);

/// Parses `sdp` and gives it to webrtcbin as the remote answer ("set-remote-description"). An answer
/// that is not SDP calls `done` at once with the parser's reason.
void CGStreamerWebRTCShim_set_remote_answer(GstElement *webrtcbin, const char *sdp, CGStreamerWebRTCShimDone done,
                                            void *context);

/// Adds a transceiver that receives only, offering the codecs `caps` lists (application/x-rtp
/// structures, one a codec): the "add-transceiver" action signal. FALSE when the caps cannot be read.
gboolean CGStreamerWebRTCShim_add_receiver(GstElement *webrtcbin, const char *caps);

/// Makes every transceiver webrtcbin has send only (a publisher's: a sink pad requested by linking
/// makes one that sends and receives). Returns how many it changed.
int CGStreamerWebRTCShim_send_only(GstElement *webrtcbin);

#endif
