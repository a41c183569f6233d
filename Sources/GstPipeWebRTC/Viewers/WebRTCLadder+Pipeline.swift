import GStreamer
import GstPipeParsing
import GstPipeSupport

/// A ladder's encodes in the run's pipeline. The raw video enters a `tee`; the top rung's chain after it
/// is the run's own (`topChain`: the one-frame queue, a scaler when the rung has a size, the encoder,
/// the appsink), and each lower rung is a bin built here off the same tee:
///
///     tee. ! valve ! queue ! videoscale ! capsfilter ! encoder ! appsink
///
/// A lower rung's valve is closed until a viewer watches it (`setWatched`): closed, it drops the frames
/// before the scaler, so a rung nobody watches neither scales nor encodes. The top rung always encodes:
/// every viewer starts on it, and for a file input its appsink's sync is what paces the reading.
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
        /// The valve before it, nil for the top rung (which always encodes).
        let valve: Element?
        /// The caps its scaler makes, nil for a rung of the source's size.
        let size: Element?
    }

    /// The ladder as asked for.
    package let ladder: WebRTCLadder
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

    /// The top rung's chain after the tee, as launch tokens, up to (not including) its appsink: the
    /// one-frame queue before the encoder (`WebRTCViewers.encoderQueue`), a scaler when the rung has a
    /// size, the encoder at the rung's bit rate.
    package static func topChain(of ladder: WebRTCLadder, codec: WebRTCCodec) -> [String] {
        let top = ladder.rungs[0]
        var tokens = WebRTCViewers.encoderQueue
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
        guard let bin = tee.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "the ladder's tee is in no bin")
        }
        self.ladder = ladder
        self.misfit = misfit
        let sync = (try? top.get("sync").boolValue) ?? true
        var rungs = [Rung(rung: ladder.rungs[0], appsink: top, valve: nil, size: nil)]
        for rung in ladder.rungs.dropFirst() {
            let caps = "video/x-raw,width=\(rung.width ?? 16),height=\(rung.height ?? 16),pixel-aspect-ratio=1/1"
            let encoder = codec.encoderChain(bitrate: rung.bitrate, keyFrameDistance: Self.keyFrameNet)
            // The valve forwards the stream's sticky events while closed: its end of stream above all,
            // without which the run's end would wait for a sink that never gets one.
            let description =
                (["valve name=valve drop=true drop-mode=forward-sticky-events", "!"] + WebRTCViewers.encoderQueue
                + ["videoscale", "!", "capsfilter name=size caps=\"\(caps)\"", "!"] + encoder
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
            // The source's size is the top rung's to choose: asked which formats it takes, a lower rung
            // answers any the asker offers. Its scaler would answer its own size first, and a source
            // free in its size (noise, videotestsrc) took it: 320x180 where it was 320x240.
            branchOutput.addProbe(.queryDownstream) { info in
                guard let query = info.query, query.typeName == "caps" else { return .ok }
                _ = query.setCapsResult(query.capsFilter ?? .any)
                return .handled
            }
            rungs.append(Rung(rung: rung, appsink: appsink, valve: valve, size: branch.element(named: "size")))
        }
        self.rungs = rungs
        try watchSource(at: tee)
    }

    /// How many rungs, from the top, the source gives: all that fit it once its size is known; the top
    /// alone before.
    package var usable: Int { source.fit.withLock { $0?.usable } ?? 1 }

    /// The bit rates of the rungs the source gives, largest first: what a viewer's estimate chooses from.
    package var usableBitrates: [Int] { rungs.prefix(usable).map(\.rung.bitrate) }

    /// Opens the valve of lower rung `index` while someone watches it (`watched`), closes it after.
    package func setWatched(_ index: Int, _ watched: Bool) {
        guard rungs.indices.contains(index), let valve = rungs[index].valve else { return }
        try? valve.set("drop", !watched)
    }

    /// True when rung `index` is encoding now: the top always, a lower one while its valve is open.
    package func isEncoding(_ index: Int) -> Bool {
        guard rungs.indices.contains(index) else { return false }
        guard let valve = rungs[index].valve else { return true }
        return (try? valve.get("drop").boolValue) == false
    }

    /// On the tee's input: the source's size from its caps (which rungs it gives, each lower rung's size
    /// for its shape), and a force-key-unit event every `keyFrameInterval` of stream time, which the tee
    /// hands to every rung before the same frame.
    private func watchSource(at tee: Element) throws(GStreamerError) {
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
                if let failure {
                    misfit(failure)
                    input.parentElement?.postError(failure.message)
                    return .drop
                }
                return .ok
            }
            guard let pts = info.buffer?.pts else { return .ok }
            let due = next.withLock { next -> Bool in
                // The first frame is a key frame anyway; a jump back in time (a new segment) starts over.
                guard let deadline = next, pts + Self.keyFrameInterval >= deadline else {
                    next = pts + Self.keyFrameInterval
                    return false
                }
                guard pts >= deadline else { return false }
                next = pts + Self.keyFrameInterval
                return true
            }
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
