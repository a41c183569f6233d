import CGStreamer
import CGStreamerShim

/// A bin: an element that contains elements.
public class Bin: Element, @unchecked Sendable {
    /// A bin built from a launch description, such as `"videoconvert ! cacasink"`, whose unlinked pads
    /// become the bin's own (ghost) pads.
    ///
    /// The corresponding C function is `gst_parse_bin_from_description`.
    ///
    /// - Parameter description: The elements and links, in gst-launch-1.0's syntax.
    /// - Throws: ``GStreamerError`` (syntax) with GStreamer's message when the description does not parse or
    ///   an element in it does not exist; also when GStreamer cannot be initialized.
    public convenience init(description: String) throws(GStreamerError) {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let bin = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            if let bin { gst_object_unref(UnsafeMutableRawPointer(bin)) }
            throw GStreamerError(taking: error, kind: .syntax, source: nil)
        }
        guard let bin else {
            throw GStreamerError(kind: .syntax, message: "could not construct bin \"\(description)\"")
        }
        self.init(UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstElement.self), owned: true)
    }

    /// An empty bin to add elements to; give it ghost pads (`addGhostPad`) to link it as one element.
    ///
    /// The corresponding C function is `gst_bin_new`.
    ///
    /// - Parameter name: The bin's name, or nil for a numbered one ("bin0").
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        self.init(gst_bin_new(name)!, owned: true)
    }

    /// The child (at any depth) of this name.
    ///
    /// The corresponding C function is `gst_bin_get_by_name`.
    ///
    /// - Parameter name: The element's name, as given by `name=` or numbered by GStreamer ("videotestsrc0").
    /// - Returns: The element (a ``Bin`` when it is one), or nil when there is none of this name.
    public func element(named name: String) -> Element? {
        guard let child = gst_bin_get_by_name(binPointer, name) else { return nil }
        return Element.wrap(child)
    }

    /// The elements directly inside, newest first (GStreamer's iteration order).
    ///
    /// The corresponding C function is `gst_bin_iterate_elements`.
    public var children: [Element] {
        elements(gst_bin_iterate_elements(binPointer))
    }

    /// Every element inside, at any depth, sources last (GStreamer's iteration order).
    ///
    /// The corresponding C function is `gst_bin_iterate_recurse`.
    public var allElements: [Element] {
        elements(gst_bin_iterate_recurse(binPointer))
    }

    private func elements(_ iterator: UnsafeMutablePointer<GstIterator>?) -> [Element] {
        var result: [Element] = []
        guard let iterator else { return result }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&value) {
                result.append(Element.wrap(object.assumingMemoryBound(to: GstElement.self), owned: false))
            }
            g_value_reset(&value)
        }
        g_value_unset(&value)
        return result
    }

    /// Replaces `old`, a child of this bin or of a bin inside it with one sink pad, by `new` (linked to
    /// the same upstream pad, under the same name). For use before the pipeline runs.
    ///
    /// - Parameters:
    ///   - old: The element to take out; the bin holding it releases it.
    ///   - new: The element to put in; it must not be in a bin yet, and is renamed to `old`'s name.
    /// - Throws: ``GStreamerError`` (invalid argument) when `old` is in no bin, or `new`'s sink pad cannot be
    ///   linked to the upstream pad.
    public func replace(_ old: Element, with new: Element) throws(GStreamerError) {
        guard let parent = gst_object_get_parent(old.objectPointer) else {
            throw GStreamerError(kind: .invalidArgument, message: "\(old.name) is not in a bin", source: old.name)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(parent)) }
        let parentBin = UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstBin.self)
        let upstream: UnsafeMutablePointer<GstPad>? = {
            guard let sinkPad = gst_element_get_static_pad(old.pointer, "sink") else { return nil }
            defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
            return gst_pad_get_peer(sinkPad)
        }()
        defer { upstream.map { gst_object_unref(UnsafeMutableRawPointer($0)) } }
        let name = old.name
        gst_bin_remove(parentBin, old.pointer)
        gst_object_set_name(new.objectPointer, name)
        gst_bin_add(parentBin, new.pointer)
        if let upstream, let newSink = gst_element_get_static_pad(new.pointer, "sink") {
            defer { gst_object_unref(UnsafeMutableRawPointer(newSink)) }
            guard gst_pad_link(upstream, newSink) == GST_PAD_LINK_OK else {
                throw GStreamerError(
                    kind: .invalidArgument, message: "could not link \(name)'s replacement", source: name)
            }
        }
    }

    /// The bin drawn in Graphviz's dot language, as it is now: elements, pads and negotiated caps.
    ///
    /// The corresponding C function is `gst_debug_bin_to_dot_data`.
    ///
    /// - Returns: The graph's dot text (render it with `dot -Tsvg`); empty if GStreamer gives none.
    public func dotGraph() -> String {
        String(takingGString: gst_debug_bin_to_dot_data(binPointer, GST_DEBUG_GRAPH_SHOW_ALL)) ?? ""
    }

    var binPointer: UnsafeMutablePointer<GstBin> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstBin.self)
    }
}

extension Element {
    /// Wraps a GstElement, as a Bin when it is one.
    static func wrap(_ pointer: UnsafeMutablePointer<GstElement>, owned: Bool = true) -> Element {
        if CGStreamerShim_is_bin(pointer) != 0 {
            return Bin(pointer, owned: owned)
        }
        return Element(pointer, owned: owned)
    }
}
