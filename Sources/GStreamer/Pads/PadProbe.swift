import CGStreamer
import CGStreamerShim
import GstPipeSupport

/// What a pad probe is called for: kinds of data and how (blocking, idle).
///
/// The corresponding C type is `GstPadProbeType`.
public struct PadProbeType: OptionSet, Sendable {
    /// The `GstPadProbeType` bits.
    public let rawValue: UInt32
    /// The flags of these `GstPadProbeType` bits.
    ///
    /// - Parameter rawValue: A `GstPadProbeType` combination.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Called once when the pad is idle (no data passing), then the probe may change the pipeline.
    public static let idle = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_IDLE.rawValue)
    /// Blocks the data flow while the probe is installed (the data waits in the probe).
    public static let block = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BLOCK.rawValue)
    /// Buffers (`GST_PAD_PROBE_TYPE_BUFFER`).
    public static let buffer = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
    /// Buffer lists (`GST_PAD_PROBE_TYPE_BUFFER_LIST`).
    public static let bufferList = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
    /// Events going downstream: caps, segment, tags, end of stream (`GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM`).
    public static let eventDownstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
    /// Events going upstream: seeks, QoS (`GST_PAD_PROBE_TYPE_EVENT_UPSTREAM`).
    public static let eventUpstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue)
    /// Flush events, which otherwise skip probes (`GST_PAD_PROBE_TYPE_EVENT_FLUSH`).
    public static let eventFlush = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue)
    /// Queries going downstream (`GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM`).
    public static let queryDownstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM.rawValue)
    /// Queries going upstream (`GST_PAD_PROBE_TYPE_QUERY_UPSTREAM`).
    public static let queryUpstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_QUERY_UPSTREAM.rawValue)
    /// Data pushed downstream, the usual mode (`GST_PAD_PROBE_TYPE_PUSH`).
    public static let push = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_PUSH.rawValue)
    /// Data pulled from upstream (`GST_PAD_PROBE_TYPE_PULL`).
    public static let pull = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_PULL.rawValue)
    /// Blocking as well as idle: `GST_PAD_PROBE_TYPE_BLOCKING`.
    public static let blocking: PadProbeType = [.idle, .block]
    /// Buffers, buffer lists and downstream events: `GST_PAD_PROBE_TYPE_DATA_DOWNSTREAM`.
    public static let dataDownstream: PadProbeType = [.buffer, .bufferList, .eventDownstream]
    /// Blocks downstream data: `GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM`.
    public static let blockDownstream: PadProbeType = [.block, .dataDownstream]
}

/// What the data does after a probe.
///
/// The corresponding C type is `GstPadProbeReturn`.
public enum PadProbeReturn: Sendable {
    /// Let it pass (a blocking probe keeps blocking).
    case ok
    /// Drop it (a buffer or event goes no further; a query fails).
    case drop
    /// Remove the probe, and let the data pass.
    case remove
    /// The probe answered it: for a query, the answer set on it (`Query.setDuration`) goes back;
    /// for a buffer or event, the same as `.drop`.
    case handled
    /// Let it pass through a blocking probe without unblocking.
    case pass

    var gstValue: GstPadProbeReturn {
        switch self {
        case .ok: GST_PAD_PROBE_OK
        case .drop: GST_PAD_PROBE_DROP
        case .remove: GST_PAD_PROBE_REMOVE
        case .handled: GST_PAD_PROBE_HANDLED
        case .pass: GST_PAD_PROBE_PASS
        }
    }
}

/// What a probe sees: why it was called and the data passing, as wrappers. A buffer whose
/// timestamps or bytes the probe changes goes on changed (in place when nobody else holds it, else in
/// a copy, as `gst_buffer_make_writable` does). The query is lent for the call only:
/// after the probe returns it reads as empty.
///
/// The corresponding C type is `GstPadProbeInfo`.
public struct PadProbeInfo: Sendable {
    /// What the probe is called for, this time (`.buffer`, `.eventDownstream`, `.idle`, with `.block`
    /// and `.push` or `.pull`).
    public let type: PadProbeType
    /// The buffer passing, for `.buffer`; setting its timestamps or writing its bytes (`withMutableBytes`)
    /// sends the changed buffer on.
    public let buffer: Buffer?
    /// For a buffer list, the number of buffers in it.
    public let bufferListLength: Int?
    /// The event passing, for the event types.
    public let event: Event?
    /// The query passing, for the query types; answer it and return `.handled`. Valid only during the call.
    public let query: Query?
}

/// A probe on a pad (`Pad.addProbe`). Remove it to stop the calls (and unblock a blocking probe);
/// removing it after the pad is gone, or twice, does nothing.
public final class PadProbe: Sendable {
    private let pad: WeakObject
    /// The probe's id.
    public let id: UInt

    init(pad: UnsafeMutablePointer<GstPad>, id: UInt) {
        self.pad = WeakObject(UnsafeMutableRawPointer(pad))
        self.id = id
    }

    /// Removes the probe.
    ///
    /// The corresponding C function is `gst_pad_remove_probe`.
    public func remove() {
        pad.withObject { gst_pad_remove_probe($0.assumingMemoryBound(to: GstPad.self), gulong(id)) }
    }
}

extension Pad {
    /// Calls `handler` for what passes the pad (or, for `.idle`, when nothing does), on the thread
    /// that passes it, until the probe is removed or returns `.remove`. With `.block` the data waits
    /// until the probe is removed. Returns nil when an idle probe ran at once and returned `.remove`.
    ///
    /// A handler that uses the pad it is on takes ``addProbe(_:withPad:)`` instead of capturing it: the pad
    /// holds its probes, so a handler that holds the pad keeps both alive until the probe is removed.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    ///
    /// - Parameters:
    ///   - type: What to be called for: the data types and `.block` or `.idle`.
    ///   - handler: Called on the thread passing the data (a streaming thread, or for `.idle` possibly the
    ///     caller's thread, at once); it must not change the pad's element's state. Released when the probe is
    ///     removed.
    /// - Returns: The probe, to remove it; or nil.
    @discardableResult
    public func addProbe(
        _ type: PadProbeType, _ handler: @escaping @Sendable (PadProbeInfo) -> PadProbeReturn
    ) -> PadProbe? {
        addRawProbe(type) { _, info in Pad.runProbe(info, handler) }
    }

    /// Calls `handler` with the pad and what passes it, as ``addProbe(_:_:)`` does: for a handler that uses
    /// the pad it is on (to send an event ahead of a buffer, say), which it then need not capture. A captured
    /// pad would hold the probe that holds it, and neither would ever be freed; the pad handed in is a
    /// wrapper of the same pad, valid for the call (and longer, if the handler keeps it).
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    ///
    /// - Parameters:
    ///   - type: What to be called for: the data types and `.block` or `.idle`.
    ///   - handler: Called with the pad, on the thread passing the data, as ``addProbe(_:_:)``'s handler is.
    ///     Released when the probe is removed.
    /// - Returns: The probe, to remove it; or nil.
    @discardableResult
    public func addProbe(
        _ type: PadProbeType, withPad handler: @escaping @Sendable (Pad, PadProbeInfo) -> PadProbeReturn
    ) -> PadProbe? {
        addRawProbe(type) { pad, info in
            let wrapper = Pad(pad, owned: false)
            return Pad.runProbe(info) { handler(wrapper, $0) }
        }
    }

    /// The C pad and info a probe's handler gets, in the two public forms above.
    private typealias RawProbeHandler =
        @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstPadProbeInfo>) -> GstPadProbeReturn

    /// The two public forms' probe: `handler` gets the C pad and info, inside `CallbackThread.during`.
    private func addRawProbe(_ type: PadProbeType, _ handler: @escaping RawProbeHandler) -> PadProbe? {
        final class Box: Sendable {
            let handler: RawProbeHandler
            init(_ handler: @escaping RawProbeHandler) { self.handler = handler }
        }
        // Made here, used on a streaming thread; gst_pad_add_probe orders the two under the pad's lock.
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        HandOver.published(box)
        let id = gst_pad_add_probe(
            pointer, GstPadProbeType(type.rawValue),
            { pad, info, userData in
                guard let pad, let info, let userData else { return GST_PAD_PROBE_OK }
                HandOver.received(userData)
                let handler = Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue().handler
                return CallbackThread.during { handler(pad, info) }
            }, box,
            { userData in
                guard let userData else { return }
                Unmanaged<Box>.fromOpaque(userData).release()
            })
        return id == 0 ? nil : PadProbe(pad: pointer, id: UInt(id))
    }

    private static func runProbe(
        _ info: UnsafeMutablePointer<GstPadProbeInfo>, _ handler: @Sendable (PadProbeInfo) -> PadProbeReturn
    ) -> GstPadProbeReturn {
        let type = PadProbeType(rawValue: info.pointee.type.rawValue)
        let data = info.pointee.data
        // The wrapper takes the info's reference for the call, so a buffer nobody else holds is writable in
        // place (as gst_buffer_make_writable on the info's data is in C); the info gets it back after.
        let buffer =
            type.contains(.buffer) ? data.map { Buffer(taking: $0.assumingMemoryBound(to: GstBuffer.self)) } : nil
        let event =
            type.contains(.eventDownstream) || type.contains(.eventUpstream) || type.contains(.eventFlush)
            ? data.map { Event(borrowing: $0.assumingMemoryBound(to: GstEvent.self)) } : nil
        let query =
            type.contains(.queryDownstream) || type.contains(.queryUpstream)
            ? data.map { Query(lending: $0.assumingMemoryBound(to: GstQuery.self)) } : nil
        let listLength = type.contains(.bufferList) ? data.map { Int(gst_buffer_list_length(OpaquePointer($0))) } : nil
        let result = handler(
            PadProbeInfo(type: type, buffer: buffer, bufferListLength: listLength, event: event, query: query))
        query?.invalidate()
        if let buffer {
            // The buffer held now goes on: the same one, or the copy the probe changed (timestamps, bytes).
            // The wrapper's own reference goes when it does (at once, unless the probe kept it).
            CGStreamerShim_pad_probe_info_set_data(info, buffer.newReference())
        }
        if result == .handled && query == nil { return GST_PAD_PROBE_DROP }
        return result.gstValue
    }
}
