import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// A message as an element posted it: a reference to the GstMessage, converted to a `Message` only
/// when asked (`message`), and then once for all readers. What a sync handler
/// (`Pipeline.setSyncHandler`) sees, on the thread that posted the message.
public final class PostedMessage: @unchecked Sendable {
    // A GstMessage is not changed once posted and its reference count is atomic, so reading it from any
    // thread is safe; the conversion is cached behind a Mutex.
    let pointer: UnsafeMutablePointer<GstMessage>
    private let converted = Locked<Message?>(nil)

    init(borrowing pointer: UnsafeMutablePointer<GstMessage>) {
        self.pointer = gst_message_ref(pointer)
    }

    deinit {
        gst_message_unref(pointer)
    }

    /// The message in Swift terms, converted on first use.
    public var message: Message {
        converted.withLock { cached in
            if let cached { return cached }
            let message = Message(pointer)
            cached = message
            return message
        }
    }

    var type: GstMessageType { pointer.pointee.type }

    /// GStreamer's name for the message type, such as "need-context" or "element".
    ///
    /// The corresponding C function is `gst_message_type_get_name`.
    public var typeName: String { Message.typeName(pointer) }

    /// The name of the object that posted the message.
    public var sourceName: String? {
        pointer.pointee.src.flatMap { $0.pointee.name }.map { String(cString: $0) }
    }

    /// The element that posted the message, when an element did: what a sync handler answers
    /// (`need-context`, `prepare-window-handle`).
    public var sourceElement: Element? {
        guard let source = pointer.pointee.src,
            g_type_is_a(CGStreamerShim_object_type(source), gst_element_get_type()) != 0
        else { return nil }
        return Element.wrap(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstElement.self), owned: false)
    }

    /// The structure the message carries, copied, when it has one.
    ///
    /// The corresponding C function is `gst_message_get_structure`.
    public var structure: Structure? {
        gst_message_get_structure(pointer).map { Structure(copying: $0) }
    }

    /// For a `need-context` message, the type of context the element asks for ("gst.gl.GLDisplay", ...).
    ///
    /// The corresponding C function is `gst_message_parse_context_type`.
    public var neededContextType: String? {
        guard type == GST_MESSAGE_NEED_CONTEXT else { return nil }
        var contextType: UnsafePointer<gchar>?
        guard gst_message_parse_context_type(pointer, &contextType) != 0 else { return nil }
        return contextType.map { String(cString: $0) }
    }

    /// The clock a clock message names: the one that went away for `clock-lost` (which
    /// ``Message/clockLost(source:)`` does not carry), the one selected for `new-clock`, the one offered
    /// for `clock-provide`; nil for any other message.
    ///
    /// The corresponding C functions are `gst_message_parse_clock_lost`, `gst_message_parse_new_clock` and
    /// `gst_message_parse_clock_provide`.
    public var clock: Clock? {
        var clock: UnsafeMutablePointer<GstClock>?
        switch type {
        case GST_MESSAGE_CLOCK_LOST: gst_message_parse_clock_lost(pointer, &clock)
        case GST_MESSAGE_NEW_CLOCK: gst_message_parse_new_clock(pointer, &clock)
        case GST_MESSAGE_CLOCK_PROVIDE: gst_message_parse_clock_provide(pointer, &clock, nil)
        default: return nil
        }
        return clock.map { Clock(borrowing: $0) }
    }

    /// True for a video sink's `prepare-window-handle` message: the moment to give it a window, which
    /// must be answered on the posting thread.
    ///
    /// The corresponding C function is `gst_is_video_overlay_prepare_window_handle_message`.
    public var isPrepareWindowHandle: Bool {
        gst_is_video_overlay_prepare_window_handle_message(pointer) != 0
    }

    /// Calls `body` with the GstMessage, for C interop (to answer it with C API the wrapper lacks). The
    /// pointer must not be kept past `body` or the message changed.
    ///
    /// - Parameter body: Gets the message, on the thread the sync handler runs on.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeGstMessage<Result>(_ body: (UnsafeMutablePointer<GstMessage>) throws -> Result) rethrows
        -> Result
    {
        try body(pointer)
    }
}

/// What a sync handler does with a message after looking at it (GstBusSyncReply).
public enum BusSyncReply: Sendable {
    /// Readers of `Pipeline.messages` and of the bus's queue (`Bus.pop`) get it as usual.
    case pass
    /// No reader gets it, neither of `Pipeline.messages` nor of the bus's queue: the handler took care of it.
    case drop
}

extension Element {
    /// Posts an application message carrying `structure` on the bus, from this element: every reader
    /// of `Pipeline.messages` gets `.application(source:structure:)`. False when the element has no bus
    /// (it is in no pipeline).
    ///
    /// The corresponding C functions are `gst_message_new_application` and `gst_element_post_message`.
    ///
    /// - Parameter structure: The message's content; it is copied.
    /// - Returns: Whether the message was posted.
    @discardableResult
    public func postApplicationMessage(_ structure: Structure) -> Bool {
        let message = structure.withUnsafeGstStructure {
            gst_message_new_application(objectPointer, gst_structure_copy($0))
        }
        return gst_element_post_message(pointer, message) != 0
    }

    /// Posts an element message carrying `structure` on the bus, from this element (what `level` and
    /// `spectrum` post): readers get `.element(source:structure:)`.
    ///
    /// The corresponding C functions are `gst_message_new_element` and `gst_element_post_message`.
    ///
    /// - Parameter structure: The message's content; it is copied.
    /// - Returns: Whether the message was posted (false when the element has no bus).
    @discardableResult
    public func postElementMessage(_ structure: Structure) -> Bool {
        let message = structure.withUnsafeGstStructure {
            gst_message_new_element(objectPointer, gst_structure_copy($0))
        }
        return gst_element_post_message(pointer, message) != 0
    }
}
