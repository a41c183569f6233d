import CGStreamer
import CGStreamerShim

// Finding an appsrc or appsink in a bin, and checking that an element is one, for the typed wrappers
// AppSrc and AppSink.

extension Element {
    /// A boolean property's value; `fallback` when it cannot be read.
    func boolProperty(_ name: String, default fallback: Bool) -> Bool {
        (try? get(name))?.boolValue ?? fallback
    }

    /// The element's pointer when it is of `type` (described as `what`, "an appsrc"); else throws.
    func checkedPointer(_ type: GType, _ what: String) throws(GStreamerError) -> UnsafeMutablePointer<GstElement> {
        guard isA(type) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(name) is a \(factoryName ?? "?"), not \(what)", source: name)
        }
        return pointer
    }

    /// True when the element is of `type` or a subtype of it.
    ///
    /// The corresponding C function is `g_type_is_a`.
    func isA(_ type: GType) -> Bool {
        g_type_is_a(CGStreamerShim_object_type(pointer), type) != 0
    }
}

extension Bin {
    /// The appsrc named `name` inside the bin (at any depth).
    ///
    /// The corresponding C function is `gst_bin_get_by_name`.
    ///
    /// - Parameter name: The element's name, as in `appsrc name=src`.
    /// - Returns: The appsrc.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no element of that name or it is not
    ///   an appsrc.
    public func appSrc(named name: String) throws(GStreamerError) -> AppSrc {
        try AppSrc(child(named: name))
    }

    /// The appsink named `name` inside the bin (at any depth).
    ///
    /// The corresponding C function is `gst_bin_get_by_name`.
    ///
    /// - Parameter name: The element's name, as in `appsink name=sink`.
    /// - Returns: The appsink.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no element of that name or it is not
    ///   an appsink.
    public func appSink(named name: String) throws(GStreamerError) -> AppSink {
        try AppSink(child(named: name))
    }

    private func child(named name: String) throws(GStreamerError) -> Element {
        guard let element = element(named: name) else {
            throw GStreamerError(kind: .invalidArgument, message: "no element named \"\(name)\" in \(self.name)")
        }
        return element
    }
}
