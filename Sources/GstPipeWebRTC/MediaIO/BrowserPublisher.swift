import Foundation
import GStreamer
import GstPipeSupport
import MediaIO
import Synchronization

/// A browser's camera (and microphone) rendered into a Swift `VideoSink` (and `AudioSink`): the
/// same server as the CLI's `webrtc://HOST:PORT/PATH` input, with a publisher page at PATH and a WHIP
/// endpoint at PATH/whip (OBS and any WHIP client publish there too, from any origin).
///
/// ```swift
/// let publisher = try await BrowserPublisher.receive(at: "webrtc://127.0.0.1:8891/in", video: renderer)
/// print("publish at \(publisher.pageURL)")
/// ```
///
/// One publisher at a time (another gets `409 Conflict`); when it leaves, the next may come, and so it
/// may when the one in place has not connected within 15 s or, connected, has sent no media for 10 s. Each
/// decoded frame is converted to the sink's pixel format and rendered as it arrives (no waiting on a
/// clock: the call is real time). `?token=SECRET` (or `GSTPIPE_WEBRTC_TOKEN`) makes every WHIP request
/// bear `Authorization: Bearer SECRET`.
///
/// The publisher page opens a data channel beside its camera: what it sends (`window.gstpipe.send(...)`)
/// comes out of ``messages``, and ``send(_:to:)`` reaches the page (`window.gstpipe.onmessage`).
public final class BrowserPublisher: Sendable {
    /// The publisher page's URL (`http://HOST:PORT/PATH`).
    public var pageURL: String { http.withLock { $0?.pageURL } ?? "" }
    /// The WHIP endpoint's URL, for other WHIP clients.
    public var whipURL: String { pageURL + "/whip" }

    private let sessions: BrowserPublisherSessions
    private let http = Locked<SignallingServer?>(nil)

    private init(sessions: BrowserPublisherSessions) {
        self.sessions = sessions
    }

    /// Starts the sinks and takes a browser's publishing at `address`, until ``close()``.
    ///
    /// - Parameters:
    ///   - address: `webrtc://HOST:PORT/PATH`, with `?token=` for a bearer token. HOST `0.0.0.0` (or none)
    ///     listens on every address of this machine.
    ///   - video: Renders the publisher's camera, in its `VideoSink/pixelFormat`.
    ///   - audio: Renders the publisher's microphone; nil leaves the sound out.
    ///   - ice: STUN and TURN servers and the public address, for publishers beyond this network: given to
    ///     each publisher's webrtcbin and to the publisher page (as ``BrowserViewers`` does); none by default.
    ///   - note: Told what publishers do (one came, one left); nothing by default.
    /// - Returns: Once the server accepts connections.
    /// - Throws: ``BrowserWebRTCError`` when the address or `ice` cannot be read, the port is taken, or the
    ///   sinks' pipeline cannot start.
    @discardableResult
    public static func receive(
        at address: String, video: some VideoSink, audio: (any AudioSink)? = nil,
        ice: BrowserICEServers = BrowserICEServers(),
        note: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(BrowserWebRTCError) -> BrowserPublisher {
        let parsed = try BrowserAddress(address, defaultPort: 8891)
        // Read before anything starts: a bad server is the caller's to fix, with nothing to stop.
        let settings = try ice.settings(localAddresses: SignallingServer.iceAddresses(for: parsed.server.host))
        let pipeline: Pipeline
        do {
            // Live and stamped as each sample arrives: the publisher's times are another pipeline's.
            let feed = "appsrc format=time is-live=true do-timestamp=true max-buffers=4 leaky-type=downstream"
            var description = try "\(feed) name=video ! videoconvert ! \(BrowserElements.name(of: video)) sync=false"
            var objects: [BrowserElements.Role: any AnyObject & Sendable] = [.videoSink: video]
            if let audio {
                description +=
                    " \(feed) name=audio ! audioconvert ! audioresample ! "
                    + "\(try BrowserElements.name(of: audio)) sync=false"
                objects[.audioSink] = audio
            }
            pipeline = try BrowserElements.launch(description, objects: objects)
            try pipeline.play()
        } catch {
            throw BrowserWebRTCError("cannot make the pipeline that renders the publisher: \(error)")
        }
        let sessions = BrowserPublisherSessions(pipeline: pipeline, ice: settings, note: note)
        let publisher = BrowserPublisher(sessions: sessions)
        let endpoints = WHIPEndpoints(path: parsed.server.path, input: sessions, token: parsed.token)
        do {
            let server = try await SignallingServer(address: parsed.server, router: endpoints.router())
            publisher.http.withLock { $0 = server }
            return publisher
        } catch {
            sessions.close()
            throw BrowserWebRTCError(error.message)
        }
    }

    /// The messages publishers' pages send over their data channels, each with the publisher's session
    /// (``BrowserMessage/peer``), until ``close()`` ends the sequence. Read by one task.
    public var messages: BrowserMessages { sessions.channels.messages }

    /// The session of the publisher whose data channel is open now, if any (one publishes at a time).
    public var peers: [String] { sessions.channels.peers }

    /// Sends `content` to the publisher's page (`window.gstpipe.onmessage`): to `peer` alone, or to
    /// whichever publisher is on when nil.
    ///
    /// - Parameters:
    ///   - content: The text or the bytes to send.
    ///   - peer: The publisher's session id, or nil for whichever publisher is on.
    /// - Returns: How many pages it reached: 0 or 1.
    @discardableResult
    public func send(_ content: BrowserMessage.Content, to peer: String? = nil) -> Int {
        sessions.channels.send(content, to: peer)
    }

    /// Frames rendered into the video sink so far, from every publisher.
    public var framesReceived: Int { sessions.framesReceived }

    /// Stops listening, closes the publisher's connection and stops the sinks.
    public func close() {
        http.withLock { $0?.close() }
        sessions.close()
    }
}
