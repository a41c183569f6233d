import GStreamer
import GstPipeParsing
import GstPipeSupport

/// A ladder's encodes of one codec in the run's pipeline. The raw video enters a `tee`; the top rung's
/// chain after it is the run's own (`topChain`: a valve, the one-frame queue, a scaler when the rung has
/// a size, the encoder, the appsink), and each lower rung is a bin built here off the same tee:
///
///     tee. ! valve ! queue ! videoscale ! capsfilter ! encoder ! appsink
///
/// A rung's valve is closed until a viewer watches it (`setWatched`): closed, it drops the frames
/// before the scaler, so a rung nobody watches neither scales nor encodes, the top rung included (every
/// viewer starts on it, and it opens as one joins). A second codec for the viewers whose offer prefers
/// it (`init(codec:beside:tee:)`) is a ladder of the same rungs off the same tee, every rung such a bin:
/// a codec nobody watches costs nothing either. Since no encode may run, what paces a file input's
/// reading is a branch of its own off the tee (`queue ! fakesink sync=true`), which costs a clock wait.
///
/// Key frames are aligned: every two seconds of stream time, one force-key-unit event sent into the
/// tee reaches every rung's encoder before the same frame, so each rung's key frames fall on the same
/// pictures and a viewer moved between rungs finds one soon on the rung it goes to (it asks for one
/// too, `WebRTCViewers`). The encoders' own key-frame distance is a longer net behind that.
package final class WebRTCLadderEncode: Sendable {
    /// One rung's encode, as the viewers are fed from it.
    package struct Rung: Sendable {
        /// What the rung is: its size and bit rate.
        package let rung: WebRTCLadder.Rung
        /// The appsink its encoded frames reach.
        package let appsink: Element
        /// The valve before it; nil for a top rung built without one (`topChain` has one), which always
        /// encodes.
        let valve: Element?
        /// The caps its scaler makes, nil for a rung of the source's size.
        let size: Element?
    }

    /// The ladder as asked for.
    package let ladder: WebRTCLadder
    /// The codec every rung encodes.
    package let codec: WebRTCCodec
    /// Every rung of `ladder`, the top first; `usable` says how many of them the source can give.
    package let rungs: [Rung]
    /// Told once, when the source's size shows that a rung the user gave cannot be encoded.
    private let misfit: @Sendable (WebRTCLadder.Failure) -> Void
    /// The source's size and the rungs it gives, once its caps came; in a box the tee's probe holds.
    private let source = Source()

    private final class Source: Sendable {
        let fit = Locked<(width: Int, height: Int, usable: Int)?>(nil)
    }

    /// The interval of the aligned key frames, in stream time.
    package static let keyFrameInterval: ClockTime = 2_000_000_000
    /// The encoders' own key-frame distance (frames), a net behind the aligned key frames.
    package static let keyFrameNet = 300

    /// The valve before a rung's encode, as launch tokens: closed at first (`setWatched` opens it). It
    /// forwards the stream's sticky events while closed: its end of stream above all, without which the
    /// run's end would wait for a sink that never gets one.
    static let valve = ["valve", "drop=true", "drop-mode=forward-sticky-events", "!"]

    /// The top rung's chain after the tee, as launch tokens, up to (not including) its appsink: the
    /// valve (`valve`), the one-frame queue before the encoder (`WebRTCViewers.encoderQueue`), a scaler
    /// when the rung has a size, the encoder at the rung's bit rate.
    package static func topChain(of ladder: WebRTCLadder, codec: WebRTCCodec) -> [String] {
        let top = ladder.rungs[0]
        var tokens = valve + WebRTCViewers.encoderQueue
        if let width = top.width, let height = top.height {
            tokens += ["videoscale", "!", "video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1", "!"]
        }
        return tokens + codec.encoderChain(bitrate: top.bitrate, keyFrameDistance: keyFrameNet)
    }

    /// Builds the rungs below the top off `tee`, whose first branch is the top rung's chain
    /// (`topChain`) ending in `top` (its appsink), in `tee`'s bin, before the pipeline plays. `misfit`
    /// is told when the source turns out smaller than a rung `ladder` gives (the default ladder,
    /// `WebRTCLadder.standard`, just leaves out the rungs a small source cannot give); an error is
    /// posted from the tee then too, which stops the run.
    package init(
        ladder: WebRTCLadder, codec: WebRTCCodec, tee: Element, top: Element,
        misfit: @escaping @Sendable (WebRTCLadder.Failure) -> Void
    ) throws(GStreamerError) {
        self.ladder = ladder
        self.codec = codec
        self.misfit = misfit
        let sync = (try? top.get("sync").boolValue) ?? true
        var rungs = [Rung(rung: ladder.rungs[0], appsink: top, valve: Self.valve(before: top, after: tee), size: nil)]
        for rung in ladder.rungs.dropFirst() {
            rungs.append(try Self.branch(for: rung, codec: codec, sync: sync, off: tee))
        }
        self.rungs = rungs
        let pacer = rungs[0].valve == nil ? nil : try Self.pace(off: tee, sync: sync)
        try watchSource(at: tee, aligning: true, pacer: pacer)
    }

    /// The same ladder as `primary`'s in `codec`, off the same tee (`tee`), for the viewers whose offer
    /// prefers it: every rung, the top included, a valved bin, so that nothing of it encodes until a
    /// viewer watches it. The key frames are `primary`'s (its force-key-unit events reach these
    /// encoders too), and a rung the source cannot give is `primary`'s to report.
    package init(codec: WebRTCCodec, beside primary: WebRTCLadderEncode, tee: Element) throws(GStreamerError) {
        ladder = primary.ladder
        self.codec = codec
        misfit = { _ in }
        let sync = (try? primary.rungs[0].appsink.get("sync").boolValue) ?? true
        var rungs: [Rung] = []
        for rung in ladder.rungs { rungs.append(try Self.branch(for: rung, codec: codec, sync: sync, off: tee)) }
        self.rungs = rungs
        try watchSource(at: tee, aligning: false, pacer: nil)
    }

    /// The valve between `tee` and the top rung's appsink `top` (`topChain` puts one there), nil when
    /// there is none.
    private static func valve(before top: Element, after tee: Element) -> Element? {
        var element = top.pad(named: "sink")?.peer?.parentElement
        while let current = element, current.factoryName != "tee" {
            if current.factoryName == "valve" { return current }
            element = current.pad(named: "sink")?.peer?.parentElement
        }
        return nil
    }

    /// One rung's encode as a bin off `tee`, in `tee`'s bin (`tee. ! valve ! queue ! videoscale !
    /// capsfilter ! encoder ! appsink`), its valve closed: a lower rung's scaler gets its size once the
    /// source's is known (`fit`); a top rung of the source's size has no scaler.
    private static func branch(
        for rung: WebRTCLadder.Rung, codec: WebRTCCodec, sync: Bool, off tee: Element
    ) throws(GStreamerError) -> Rung {
        guard let bin = tee.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "the ladder's tee is in no bin")
        }
        let caps = "video/x-raw,width=\(rung.width ?? 16),height=\(rung.height ?? 16),pixel-aspect-ratio=1/1"
        let scaler = rung.width == nil ? [] : ["videoscale", "!", "capsfilter name=size caps=\"\(caps)\"", "!"]
        let encoder = codec.encoderChain(bitrate: rung.bitrate, keyFrameDistance: keyFrameNet)
        let description =
            (["valve name=valve"] + valve.dropFirst() + WebRTCViewers.encoderQueue + scaler + encoder
            + ["!", "appsink name=sink sync=\(sync) async=false max-buffers=60"]).joined(separator: " ")
        let branch = try Bin(description: description)
        try bin.add(branch)
        guard let input = branch.pad(named: "sink"), let appsink = branch.element(named: "sink"),
            let valve = branch.element(named: "valve")
        else {
            throw GStreamerError(kind: .core, message: "a ladder rung's bin has no input or appsink")
        }
        let branchOutput = try tee.requestPad("src_%u")
        try branchOutput.link(to: input)
        answerAnySize(at: branchOutput)
        return Rung(rung: rung, appsink: appsink, valve: valve, size: branch.element(named: "size"))
    }

    /// The source's size is the run's top rung's to choose: asked which formats it takes, a branch off
    /// the tee answers any the asker offers. A rung's scaler would answer its own size first, and a
    /// source free in its size (noise, videotestsrc) took it: 320x180 where it was 320x240.
    private static func answerAnySize(at branchOutput: Pad) {
        branchOutput.addProbe(.queryDownstream) { info in
            guard let query = info.query, query.typeName == "caps" else { return .ok }
            _ = query.setCapsResult(query.capsFilter ?? .any)
            return .handled
        }
    }

    /// A branch off `tee` that holds each frame until its time (`sync`): with every rung's valve
    /// closed, nothing else would, and a file input would be read as fast as it decodes before anyone
    /// watched. A live input keeps its own pace: there the branch stops waiting (`watchSource`, as the
    /// appsinks do, `WebRTCViewers.adaptToLiveInput`), so that it never holds the tee. Returns its sink.
    private static func pace(off tee: Element, sync: Bool) throws(GStreamerError) -> Element {
        guard let bin = tee.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "the ladder's tee is in no bin")
        }
        let pacer = try Bin(
            description: (WebRTCViewers.encoderQueue + ["fakesink name=pace sync=\(sync) async=false"])
                .joined(separator: " "))
        try bin.add(pacer)
        guard let input = pacer.pad(named: "sink"), let sink = pacer.element(named: "pace") else {
            throw GStreamerError(kind: .core, message: "the ladder's pacing branch has no input")
        }
        let branchOutput = try tee.requestPad("src_%u")
        try branchOutput.link(to: input)
        answerAnySize(at: branchOutput)
        return sink
    }

    /// How many rungs, from the top, the source gives: all that fit it once its size is known; the top
    /// alone before.
    package var usable: Int { source.fit.withLock { $0?.usable } ?? 1 }

    /// The bit rates of the rungs the source gives, largest first: what a viewer's estimate chooses from.
    package var usableBitrates: [Int] { rungs.prefix(usable).map(\.rung.bitrate) }

    /// Opens the valve of rung `index` while someone watches it (`watched`), closes it after.
    package func setWatched(_ index: Int, _ watched: Bool) {
        guard rungs.indices.contains(index), let valve = rungs[index].valve else { return }
        try? valve.set("drop", !watched)
    }

    /// True when rung `index` is encoding now: while its valve is open (always, for a top rung without one).
    package func isEncoding(_ index: Int) -> Bool {
        guard rungs.indices.contains(index) else { return false }
        guard let valve = rungs[index].valve else { return true }
        return (try? valve.get("drop").boolValue) == false
    }

    /// On the tee's input: the source's size from its caps (which rungs it gives, each lower rung's size
    /// for its shape), and when `aligning`, a force-key-unit event every `keyFrameInterval` of stream
    /// time, which the tee hands to every rung (of every codec) before the same frame. At the first frame,
    /// the `pacer`'s sink stops waiting for the clock if the input is live.
    private func watchSource(at tee: Element, aligning: Bool, pacer: Element?) throws(GStreamerError) {
        guard let input = tee.pad(named: "sink") else {
            throw GStreamerError(kind: .core, message: "the ladder's tee has no input")
        }
        let next = Locked<ClockTime?>(nil)
        // The probe holds this encode's parts (not `self`, which the viewers hold): they live as long as the run's
        // pipeline. The pad comes with each call: captured, it would hold the probe that holds it.
        let (ladder, rungs, source, misfit) = (ladder, rungs, source, misfit)
        input.addProbe([.buffer, .eventDownstream]) { input, info in
            if let caps = info.event?.caps, let width = caps.int("width"), let height = caps.int("height") {
                let failure = Self.fit(ladder: ladder, rungs: rungs, width: width, height: height, source: source)
                if let failure, aligning {
                    misfit(failure)
                    input.parentElement?.postError(failure.message)
                    return .drop
                }
                return .ok
            }
            guard aligning, let pts = info.buffer?.pts else { return .ok }
            let (due, first) = next.withLock { next -> (Bool, Bool) in
                // The first frame is a key frame anyway; a jump back in time (a new segment) starts over.
                guard let deadline = next, pts + Self.keyFrameInterval >= deadline else {
                    defer { next = pts + Self.keyFrameInterval }
                    return (false, next == nil)
                }
                guard pts >= deadline else { return (false, false) }
                next = pts + Self.keyFrameInterval
                return (true, false)
            }
            if first, let pacer, input.peerLatency?.live == true { try? pacer.set("sync", false) }
            // Sent on this streaming thread, ahead of this buffer: each encoder makes it a key frame.
            if due { input.send(.forceKeyUnit()) }
            return .ok
        }
    }

    /// For a source of `width`x`height`: the rungs it gives, kept in `source`, and each lower rung's
    /// size. The default ladder leaves out the rungs the source is not larger than and gives the others
    /// the source's shape (their height kept, the width from it, even); a ladder the user gave keeps
    /// its sizes, and a rung larger than the source is a failure.
    private static func fit(
        ladder: WebRTCLadder, rungs: [Rung], width: Int, height: Int,
        source: Source
    ) -> WebRTCLadder.Failure? {
        if ladder != .standard, let failure = ladder.check(width: width, height: height) { return failure }
        let usable = ladder == .standard ? ladder.fitting(width: width, height: height).rungs.count : rungs.count
        for rung in rungs.prefix(usable).dropFirst() {
            guard let size = rung.size, let rungHeight = rung.rung.height else { continue }
            let rungWidth =
                ladder == .standard
                ? max(16, Int((Double(rungHeight) * Double(width) / Double(height) / 2).rounded()) * 2)
                : rung.rung.width ?? width
            try? size.set(
                "caps", fromString: "video/x-raw,width=\(rungWidth),height=\(rungHeight),pixel-aspect-ratio=1/1")
        }
        source.fit.withLock { $0 = (width, height, usable) }
        return nil
    }
}
