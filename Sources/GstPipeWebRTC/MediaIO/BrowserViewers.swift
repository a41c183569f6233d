import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// Browsers watching a Swift `VideoSource` (and an `AudioSource`) over WebRTC: the same server as
/// `gstpipe … ! webrtc://HOST:PORT/PATH`, with a viewer page at PATH and a WHEP endpoint at PATH/whep
/// (any WHEP player works, from any origin). The source's frames are encoded once in each codec watched
/// (VP8 or H.264, whichever each viewer's offer prefers, unless `?codec=vp8` or `?codec=h264` fixes one;
/// the sound as Opus) and shared by every viewer, each in a pipeline of its own. A
/// source larger than 640x360 is encoded as a small ladder too (640x360 at 800 kbit/s, 320x180 at
/// 250 kbit/s, each only while someone watches it), and a viewer whose link cannot carry the source's
/// encode is moved to the rung it can.
///
/// ```swift
/// let viewers = try await BrowserViewers.serve(video: capturer, at: "webrtc://127.0.0.1:8890/live")
/// print("watch at \(viewers.pageURL)")
/// ```
///
/// `?token=SECRET` in the address (or `GSTPIPE_WEBRTC_TOKEN`) makes every WHEP request bear
/// `Authorization: Bearer SECRET`; the page sends the token of its own URL (`#token=SECRET`).
///
/// Each viewer's page opens a data channel beside the media: what it sends (`window.gstpipe.send(...)`)
/// comes out of ``messages``, named by the viewer's session, and ``send(_:to:)`` reaches one viewer's
/// page or every one (`window.gstpipe.onmessage`), for overlays, remote control or chat.
public final class BrowserViewers: Sendable {
    /// The viewer page's URL (`http://HOST:PORT/PATH`); a browser on any machine that reaches HOST opens it.
    public let pageURL: String
    /// The WHEP endpoint's URL, for other WHEP players.
    public var whepURL: String { pageURL + "/whep" }

    /// The source's pipeline until ``close()``, which lets it (and with it the user's source) go.
    private let pipeline: Locked<Pipeline?>
    private let viewers: WebRTCViewers
    private let http: SignallingServer
    private let channels: BrowserChannels

    private init(pipeline: Pipeline, viewers: WebRTCViewers, http: SignallingServer, channels: BrowserChannels) {
        self.pipeline = Locked(pipeline)
        self.viewers = viewers
        self.http = http
        self.channels = channels
        pageURL = http.pageURL
    }

    /// The messages the viewers' pages send over their data channels, each with the viewer's session
    /// (``BrowserMessage/peer``), until ``close()`` ends the sequence. Read by one task.
    public var messages: BrowserMessages { channels.messages }

    /// The sessions of the viewers whose data channel is open now, the peers ``send(_:to:)`` reaches.
    public var peers: [String] { channels.peers }

    /// Sends `content` to the page of the viewer `peer` (a ``BrowserMessage/peer``), or to every
    /// viewer's page when nil: it arrives at the page's `window.gstpipe.onmessage`, a string for
    /// `.text` and an `ArrayBuffer` for `.binary`.
    ///
    /// - Parameters:
    ///   - content: The text or the bytes to send.
    ///   - peer: One viewer's session id, or nil for every viewer.
    /// - Returns: How many viewers it reached (a viewer whose channel is not open yet is not counted).
    @discardableResult
    public func send(_ content: BrowserMessage.Content, to peer: String? = nil) -> Int {
        channels.send(content, to: peer)
    }

    /// Starts the source (and the sound) and serves it to browsers at `address`, until ``close()``.
    ///
    /// - Parameters:
    ///   - video: The frames every viewer sees; initialized and started here, stopped by ``close()``.
    ///   - audio: Sound beside the video, sent as Opus; nil for none.
    ///   - address: `webrtc://HOST:PORT/PATH`, with `?codec=h264` or `?codec=vp8` for that codec alone
    ///     (without, each viewer gets the one its offer prefers), `?token=` for a bearer token. HOST
    ///     `0.0.0.0` (or none) listens on every address of this machine.
    ///   - ice: STUN and TURN servers and the public address, for viewers beyond this network; none by default.
    ///   - note: Told what viewers do (one joined, one left); nothing by default.
    /// - Returns: Once the server accepts connections and the source runs.
    /// - Throws: ``BrowserWebRTCError`` when the address or `ice` cannot be read, the port is taken, or
    ///   the pipeline cannot start (a GStreamer plugin missing).
    public static func serve(
        video: some VideoSource, audio: (any AudioSource)? = nil, at address: String,
        ice: BrowserICEServers = BrowserICEServers(),
        note: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(BrowserWebRTCError) -> BrowserViewers {
        let parsed = try BrowserAddress(address, defaultPort: 8890)
        let codecName = parsed.options["codec"] ?? "vp8"
        let alternatives = parsed.options["codec"] == nil ? WebRTCCodec.encodable.filter { $0 != .vp8 } : []
        guard let codec = WebRTCCodec(option: codecName) else {
            throw BrowserWebRTCError(
                "\(parsed.server.shown): codec=\(codecName) is not sent over WebRTC: write vp8 or h264")
        }
        let settings = try ice.settings(localAddresses: SignallingServer.iceAddresses(for: parsed.server.host))
        let pipeline: Pipeline
        do {
            // The default ladder, as `webrtc://` has: the source's size, and 640x360 and 320x180 when
            // the source is larger, each viewer on the rung its link carries.
            let encoder = WebRTCLadderEncode.topChain(of: .standard, codec: codec).joined(separator: " ")
            var description =
                try "\(BrowserElements.name(of: video)) ! videoconvert ! "
                + "video/x-raw,format=I420 ! tee name=ladder ! \(encoder) ! "
                + "appsink name=video sync=true async=false max-buffers=60"
            var objects: [BrowserElements.Role: any AnyObject & Sendable] = [.videoSource: video]
            if let audio {
                description +=
                    " \(try BrowserElements.name(of: audio)) ! audioconvert ! "
                    + "audioresample ! opusenc ! appsink name=audio caps=\(WebRTCMedia.opusCaps) sync=true "
                    + "async=false max-buffers=100"
                objects[.audioSource] = audio
            }
            pipeline = try BrowserElements.launch(description, objects: objects)
        } catch {
            throw BrowserWebRTCError("cannot make the pipeline that encodes for the viewers: \(error)")
        }
        let viewers: WebRTCViewers
        let channels = BrowserChannels()
        do {
            var ladder: WebRTCLadderEncode?
            var others: [WebRTCLadderEncode] = []
            if let tee = pipeline.element(named: "ladder"), let top = pipeline.element(named: "video") {
                // The default ladder fits any source (it leaves out the rungs a small one cannot give).
                let primary = try WebRTCLadderEncode(ladder: .standard, codec: codec, tee: tee, top: top) { _ in }
                others = try alternatives.map { codec throws(GStreamerError) in
                    try WebRTCLadderEncode(codec: codec, beside: primary, tee: tee)
                }
                ladder = primary
            }
            let sources = WebRTCViewers.Sources(
                video: pipeline.element(named: "video"), audio: pipeline.element(named: "audio"), ladder: ladder,
                alternatives: others)
            viewers = try WebRTCViewers(sources: sources, codec: codec, ice: settings, channels: channels, note: note)
            try pipeline.play()
        } catch {
            pipeline.stop()
            throw BrowserWebRTCError("cannot start the viewers' source: \(error.message)")
        }
        let endpoints = WHEPEndpoints(path: parsed.server.path, viewers: viewers, token: parsed.token)
        do {
            let http = try await SignallingServer(address: parsed.server, router: endpoints.router())
            return BrowserViewers(pipeline: pipeline, viewers: viewers, http: http, channels: channels)
        } catch {
            viewers.close()
            pipeline.stop()
            throw BrowserWebRTCError(error.message)
        }
    }

    /// Stops listening, closes every viewer's connection (ending ``messages``) and stops the source.
    public func close() {
        http.close()
        viewers.close()
        let pipeline = pipeline.withLock { pipeline in
            defer { pipeline = nil }
            return pipeline
        }
        pipeline?.stop()
    }
}
