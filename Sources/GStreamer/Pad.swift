import CGStreamer

/// A pad of an element. Owns one reference.
public final class Pad: @unchecked Sendable {
    // GstPad is reference counted and thread-safe; this wrapper only reads from it.
    let pointer: UnsafeMutablePointer<GstPad>

    init(_ pointer: UnsafeMutablePointer<GstPad>, owned: Bool) {
        self.pointer = owned ? pointer : UnsafeMutableRawPointer(gst_object_ref(UnsafeMutableRawPointer(pointer)))!
            .assumingMemoryBound(to: GstPad.self)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The pad's name, such as "src".
    public var name: String {
        guard let name = gst_object_get_name(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self))
        else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The caps negotiated on the pad, once data flows.
    ///
    /// The corresponding C function is `gst_pad_get_current_caps`.
    public var currentCaps: Caps? {
        gst_pad_get_current_caps(pointer).map { Caps(taking: $0) }
    }

    /// The caps the pad's peer accepts, within `filter`.
    ///
    /// The corresponding C function is `gst_pad_peer_query_caps`.
    public func peerCaps(filter: Caps? = nil) -> Caps {
        Caps(taking: gst_pad_peer_query_caps(pointer, filter?.pointer))
    }
}
