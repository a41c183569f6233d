import CGStreamer

/// Something elements share that no pad carries: a GL display, an HTTP session, a VA display. An
/// element asks for one of a type with a `need-context` message (``PostedMessage/neededContextType``);
/// the application answers with ``Element/setContext(_:)`` on the element, or sets it on the pipeline
/// beforehand (a bin passes it to its children). Owns one reference.
///
/// The corresponding C type is `GstContext`.
public final class Context: @unchecked Sendable {
    // A GstContext is written only while the wrapper holds it alone (made here, not yet given out);
    // after that it is read only, which is safe from any thread.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { CGStreamerContext.unref(pointer) }

    /// A context of `type` carrying `fields`.
    ///
    /// The corresponding C functions are `gst_context_new` and `gst_context_writable_structure`.
    ///
    /// - Parameters:
    ///   - type: The context's type, as the element asks for it ("gst.soup.session", "my.app.key").
    ///   - persistent: True to keep it in the element across a state change to NULL.
    ///   - fields: What it carries, as a structure's fields (its name is not kept).
    /// - Throws: ``GStreamerError`` (invalid argument) when `type` is empty; also when GStreamer cannot be
    ///   initialized.
    public init(type: String, persistent: Bool = false, fields: Structure? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        guard !type.isEmpty else {
            throw GStreamerError(kind: .invalidArgument, message: "a context needs a type, such as \"my.app.key\"")
        }
        pointer = gst_context_new(type, persistent ? 1 : 0)!
        if let fields {
            let destination = gst_context_writable_structure(pointer)
            fields.withUnsafeGstStructure { source in
                _ = gst_structure_foreach(
                    source,
                    { field, value, destination in
                        gst_structure_id_set_value(
                            destination!.assumingMemoryBound(to: GstStructure.self), field, value)
                        return 1
                    }, destination)
            }
        }
    }

    /// The context's type.
    ///
    /// The corresponding C function is `gst_context_get_context_type`.
    public var type: String { String(cString: gst_context_get_context_type(pointer)) }

    /// True when the context stays in an element that goes to NULL.
    ///
    /// The corresponding C function is `gst_context_is_persistent`.
    public var isPersistent: Bool { gst_context_is_persistent(pointer) != 0 }

    /// What the context carries (a copy), as a structure named after its type.
    ///
    /// The corresponding C function is `gst_context_get_structure`.
    public var fields: Structure { Structure(copying: gst_context_get_structure(pointer)) }
}

/// GstContext's reference counting, a set of inline functions Swift sees as the mini object's.
enum CGStreamerContext {
    static func unref(_ context: OpaquePointer) {
        gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(context))
    }
}

extension Element {
    /// Gives the element a context (a bin passes it on to its children, and an element may keep it for
    /// the ones it makes later): the answer to its `need-context` message, or ahead of it.
    ///
    /// The corresponding C function is `gst_element_set_context`.
    ///
    /// - Parameter context: The context.
    public func setContext(_ context: Context) {
        gst_element_set_context(pointer, context.pointer)
    }

    /// The context of `type` the element holds, if it was given one.
    ///
    /// The corresponding C function is `gst_element_get_context`.
    ///
    /// - Parameter type: The context's type.
    /// - Returns: The context, or nil.
    public func context(ofType type: String) -> Context? {
        gst_element_get_context(pointer, type).map { Context(taking: $0) }
    }
}
