import CGStreamer
import CGStreamerShim

/// A message from a pipeline's bus, in Swift terms: one case for every kind GStreamer 1.22 posts.
/// Every case names the element that posted it (`source`; for errors, warnings and infos, the error's
/// `source`). A message posted from inside a Swift element (its appsrc or appsink) names the Swift
/// element.
public enum Message: Sendable, CustomStringConvertible {
    /// Every sink has received end of stream.
    case endOfStream(source: String?)
    /// An element failed; the pipeline should stop.
    case error(GStreamerError)
    /// An element reports a problem it could recover from.
    case warning(GStreamerError)
    /// An element reports something worth knowing that is no problem.
    case info(GStreamerError)
    /// An element changed state.
    case stateChanged(source: String?, old: State, new: State, pending: State)
    /// An asynchronous state change started (a bin's child is prerolling).
    case asyncStart(source: String?)
    /// An asynchronous state change completed (the pipeline prerolled, or a flushing seek finished),
    /// with the running time it completed at when known.
    case asyncDone(source: String?, runningTime: ClockTime?)
    /// Metadata found in the stream (title, codecs, bitrate, ...).
    case tag(source: String?, tags: TagList)
    /// An element-specific message, such as `level`'s or `spectrum`'s measurements.
    case element(source: String?, structure: Structure)
    /// A message the application posted itself (`Element.postApplicationMessage`).
    case application(source: String?, structure: Structure)
    /// A decoder or playbin lacks a plugin for the stream (an element message GStreamer's
    /// pbutils library types): what is missing, and the detail an installer takes.
    case missingPlugin(source: String?, MissingPlugin)
    /// How full a buffering element is, 0...100: a player pauses below 100 and plays at 100; with
    /// the element's mode and rates.
    case buffering(source: String?, percent: Int, stats: BufferingStats)
    /// The duration changed: query it again (`Element.duration`).
    case durationChanged(source: String?)
    /// An element's latency changed: the pipeline recalculates it (GstBin does so by itself).
    case latency(source: String?)
    /// The clock went away: a player sets PAUSED then PLAYING to select a new one. Which clock it was is
    /// ``PostedMessage/clock`` in a sync handler (`Pipeline.setSyncHandler`).
    case clockLost(source: String?)
    /// The pipeline selected a new clock (going to PLAYING).
    case newClock(source: String?, clock: Clock?)
    /// An element offers a clock (`ready`: it can be used now), posted while a pipeline selects one.
    case clockProvide(source: String?, clock: Clock?, ready: Bool)
    /// An element dropped or late-rendered data (quality of service).
    case qos(source: String?, QualityOfService)
    /// A new stream started, with its group id when it has one.
    case streamStart(source: String?, groupID: UInt?)
    /// An element offers these streams (a demuxer, decodebin3): what a select-streams event picks from.
    case streamCollection(source: String?, StreamCollection)
    /// The streams an element now outputs, out of its collection.
    case streamsSelected(source: String?, collection: StreamCollection, selected: [StreamInfo])
    /// A streaming thread entered or left an element.
    case streamStatus(source: String?, StreamStatus)
    /// A sink started stepping (`active`: it steps now, else it queued the step).
    case stepStart(source: String?, active: Bool, Step)
    /// A sink finished a step, with the running time it took (nil when unknown) and whether it
    /// reached end of stream.
    case stepDone(source: String?, Step, duration: ClockTime?, endOfStream: Bool)
    /// A segment seek started playing its segment at `position` (in `format` units).
    case segmentStart(source: String?, format: String, position: Int64)
    /// A segment seek finished its segment at `position` (in `format` units).
    case segmentDone(source: String?, format: String, position: Int64)
    /// An element asks the application to bring the pipeline to a state (a sink whose window closed
    /// asks for NULL).
    case requestState(source: String?, State)
    /// A pad of a bin is being linked or unlinked.
    case structureChange(source: String?, StructureChange)
    /// An asynchronous task reports progress (rtspsrc connecting).
    case progress(source: String?, Progress)
    /// A table of contents (chapters, editions) found or updated.
    case toc(source: String?, Toc, updated: Bool)
    /// The pipeline's running time was reset to `runningTime` (after a flushing seek with reset-time).
    case resetTime(source: String?, runningTime: ClockTime)
    /// An element asks for a context of `contextType`: answer with `Element.setContext` from a sync handler.
    case needContext(source: String?, contextType: String)
    /// An element made a context it shares with the rest of the pipeline.
    case haveContext(source: String?, Context)
    /// A device appeared (a device monitor's bus).
    case deviceAdded(source: String?, Device)
    /// A device went away (a device monitor's bus).
    case deviceRemoved(source: String?, Device)
    /// A device changed: it is now `device`, and was `old`.
    case deviceChanged(source: String?, device: Device, old: Device)
    /// A watched property changed (`Pipeline.watchCaps()`): the object's path in the pipeline, the
    /// property and its new value serialized.
    case propertyNotify(object: String, property: String, value: String?)
    /// The source points elsewhere (a playlist, an HTTP redirect): the places, best first.
    case redirect(source: String?, [RedirectEntry])
    /// An element asks for the playback rate to change by `rateMultiplier` at once (an instant-rate seek).
    case instantRateRequest(source: String?, rateMultiplier: Double)
    /// Any other message (the deprecated state-dirty), by GStreamer's name for its type and, when it
    /// carries one, its structure serialized.
    case other(type: String, source: String?, details: String?)

    /// The name of the element (or object) that posted the message.
    public var source: String? {
        switch self {
        case .error(let error), .warning(let error), .info(let error): error.source
        case .propertyNotify(let object, _, _): object
        case .endOfStream(let source), .stateChanged(let source, _, _, _), .asyncStart(let source),
            .asyncDone(let source, _), .tag(let source, _), .element(let source, _), .application(let source, _),
            .missingPlugin(let source, _), .buffering(let source, _, _), .durationChanged(let source),
            .latency(let source), .clockLost(let source), .newClock(let source, _), .clockProvide(let source, _, _),
            .qos(let source, _), .streamStart(let source, _), .streamCollection(let source, _),
            .streamsSelected(let source, _, _), .streamStatus(let source, _), .stepStart(let source, _, _),
            .stepDone(let source, _, _, _), .segmentStart(let source, _, _), .segmentDone(let source, _, _),
            .requestState(let source, _), .structureChange(let source, _), .progress(let source, _),
            .toc(let source, _, _), .resetTime(let source, _), .needContext(let source, _),
            .haveContext(let source, _), .deviceAdded(let source, _), .deviceRemoved(let source, _),
            .deviceChanged(let source, _, _), .redirect(let source, _), .instantRateRequest(let source, _),
            .other(_, let source, _):
            source
        }
    }

    /// GStreamer's name for the message type, such as "eos" or "state-changed" ("element" for a
    /// missing-plugin message, which is an element message).
    ///
    /// The corresponding C function is `gst_message_type_get_name`.
    public var typeName: String {
        switch self {
        case .endOfStream: "eos"
        case .error: "error"
        case .warning: "warning"
        case .info: "info"
        case .stateChanged: "state-changed"
        case .asyncStart: "async-start"
        case .asyncDone: "async-done"
        case .tag: "tag"
        case .element, .missingPlugin: "element"
        case .application: "application"
        case .buffering: "buffering"
        case .durationChanged: "duration-changed"
        case .latency: "latency"
        case .clockLost: "clock-lost"
        case .newClock: "new-clock"
        case .clockProvide: "clock-provide"
        case .qos: "qos"
        case .streamStart: "stream-start"
        case .streamCollection: "stream-collection"
        case .streamsSelected: "streams-selected"
        case .streamStatus: "stream-status"
        case .stepStart: "step-start"
        case .stepDone: "step-done"
        case .segmentStart: "segment-start"
        case .segmentDone: "segment-done"
        case .requestState: "request-state"
        case .structureChange: "structure-change"
        case .progress: "progress"
        case .toc: "toc"
        case .resetTime: "reset-time"
        case .needContext: "need-context"
        case .haveContext: "have-context"
        case .deviceAdded: "device-added"
        case .deviceRemoved: "device-removed"
        case .deviceChanged: "device-changed"
        case .propertyNotify: "property-notify"
        case .redirect: "redirect"
        case .instantRateRequest: "instant-rate-request"
        case .other(let type, _, _): type
        }
    }

    /// The message for logs: its type, where it comes from and what it says, such as
    /// "error from filesrc0: Resource not found.".
    public var description: String {
        if case .propertyNotify(let object, let property, let value) = self {
            return "\(object): \(property) = \(value ?? "NULL")"
        }
        let from = "\(typeName) from \(source ?? "?")"
        return detail.map { "\(from): \($0)" } ?? from
    }

    /// What `description` says after the source; nil when the kind says nothing more.
    private var detail: String? {
        switch self {
        case .error(let error), .warning(let error), .info(let error): error.message
        case .stateChanged(_, let old, let new, let pending): "\(old) -> \(new) (pending \(pending))"
        case .tag(_, let tags): "\(tags)"
        case .element(_, let structure), .application(_, let structure): "\(structure)"
        case .missingPlugin(_, let missing): missing.description
        case .buffering(_, let percent, _): "\(percent)%"
        case .qos(_, let qos): "\(qos)"
        case .streamStart(_, let group): group.map { "group \($0)" }
        case .streamCollection(_, let collection): collection.streams.map(\.streamID).joined(separator: ", ")
        case .streamsSelected(_, _, let selected): selected.map(\.streamID).joined(separator: ", ")
        case .newClock(_, let clock), .clockProvide(_, let clock, _): clock?.name
        case .streamStatus(_, let status): status.kind
        case .stepStart(_, _, let step), .stepDone(_, let step, _, _): "\(step.amount) \(step.format)"
        case .segmentStart(_, let format, let position), .segmentDone(_, let format, let position):
            "\(position) \(format)"
        case .requestState(_, let state): "\(state)"
        case .progress(_, let progress): "\(progress.code): \(progress.text)"
        case .resetTime(_, let time): "\(time) ns"
        case .needContext(_, let type): type
        case .deviceAdded(_, let device), .deviceRemoved(_, let device), .deviceChanged(_, let device, _):
            device.displayName
        case .redirect(_, let entries): entries.map(\.location).joined(separator: ", ")
        case .instantRateRequest(_, let rate): "rate x\(rate)"
        case .other(_, _, let details): details
        case .endOfStream, .propertyNotify, .asyncStart, .asyncDone, .durationChanged, .latency, .clockLost,
            .structureChange, .toc, .haveContext:
            nil
        }
    }
}
