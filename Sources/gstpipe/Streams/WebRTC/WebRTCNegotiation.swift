import CGStreamer
import CGStreamerWebRTCShim
import GStreamer

/// One webrtcbin's side of the offer and answer, as async calls: each step's GstPromise (in the C
/// shim, `CGStreamerWebRTCShim`) resumes a continuation from webrtcbin's own thread, so no thread of
/// Swift's cooperative pool waits on GStreamer. webrtcbin gathers its ICE candidates after the
/// answer is set; `gatheringComplete` waits for the last, so the answer a viewer gets holds them all
/// (no trickle needed).
struct WebRTCNegotiation: Sendable {
    /// A step webrtcbin refused, in its words.
    struct Failure: Error, Sendable {
        let reason: String
    }

    let webrtcbin: Element

    /// Gives webrtcbin the viewer's offer ("set-remote-description").
    func setRemoteOffer(_ sdp: String) async throws(Failure) {
        _ = try await step { webrtcbin, done, context in
            CGStreamerWebRTCShim_set_remote_offer(webrtcbin, sdp, done, context)
        }
    }

    /// webrtcbin's answer to the offer, as SDP ("create-answer").
    func createAnswer() async throws(Failure) -> String {
        let answer = try await step { webrtcbin, done, context in
            CGStreamerWebRTCShim_create_answer(webrtcbin, done, context)
        }
        guard let answer else { throw Failure(reason: "webrtcbin made no answer") }
        return answer
    }

    /// Sets the answer as webrtcbin's own ("set-local-description"): it starts gathering candidates.
    func setLocalAnswer(_ sdp: String) async throws(Failure) {
        _ = try await step { webrtcbin, done, context in
            CGStreamerWebRTCShim_set_local_answer(webrtcbin, sdp, done, context)
        }
    }

    /// The local description as it stands, with the candidates gathered so far.
    var localDescription: String? {
        webrtcbin.withUnsafePointer { webrtcbin in
            guard let text = CGStreamerWebRTCShim_local_description(webrtcbin) else { return nil }
            defer { g_free(text) }
            return String(cString: text)
        }
    }

    /// Lets the ICE agent offer `address` (libnice leaves loopback out unless told).
    @discardableResult
    func addLocalAddress(_ address: String) -> Bool {
        webrtcbin.withUnsafePointer { CGStreamerWebRTCShim_add_local_address($0, address) != 0 }
    }

    /// Returns once webrtcbin has gathered its last candidate ("ice-gathering-state" complete), or
    /// after `timeout` (a candidate that never comes, such as an unreachable STUN server's, must not
    /// hold the viewer's request: the answer then has the candidates gathered so far).
    func gatheringComplete(timeout: Duration) async {
        let waiter = OneShot()
        let connection = try? webrtcbin.onNotify("ice-gathering-state") { value in
            if value.stringValue == "complete" { waiter.fire() }
        }
        defer { connection?.disconnect() }
        // After connecting: a state that was complete before the handler came is seen here.
        if (try? webrtcbin.get("ice-gathering-state"))?.stringValue == "complete" { waiter.fire() }
        await waiter.wait(timeout: timeout)
    }

    /// Runs one promise-bearing step: `start` calls the shim with webrtcbin, the callback and its
    /// context; the callback resumes the continuation once, from webrtcbin's thread.
    func step(
        _ start: (UnsafeMutablePointer<GstElement>, CGStreamerWebRTCShimDone, UnsafeMutableRawPointer) -> Void
    ) async throws(Failure) -> String? {
        let result: Result<String?, Failure> = await withCheckedContinuation { continuation in
            let context = Unmanaged.passRetained(StepContinuation(continuation)).toOpaque()
            webrtcbin.withUnsafePointer { webrtcbin in
                start(webrtcbin, { context, sdp, error in
                    let box = Unmanaged<StepContinuation>.fromOpaque(context!).takeRetainedValue()
                    if let error {
                        box.continuation.resume(returning: .failure(Failure(reason: String(cString: error))))
                    } else {
                        box.continuation.resume(returning: .success(sdp.map { String(cString: $0) }))
                    }
                }, context)
            }
        }
        return try result.get()
    }
}

/// The continuation a shim callback resumes, carried through its `void *` context.
private final class StepContinuation: Sendable {
    let continuation: CheckedContinuation<Result<String?, WebRTCNegotiation.Failure>, Never>

    init(_ continuation: CheckedContinuation<Result<String?, WebRTCNegotiation.Failure>, Never>) {
        self.continuation = continuation
    }
}
