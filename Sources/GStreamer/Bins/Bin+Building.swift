import CGStreamer
import CGStreamerShim

// Building pipelines in code: bins made empty, elements added and removed.

extension Bin {
    /// Adds elements to the bin. Throws, adding none of the rest, when one is in a bin already or the
    /// bin has a child of the same name (an element of that name inside a nested bin is no obstacle).
    ///
    /// The corresponding C function is `gst_bin_add`.
    ///
    /// - Parameter elements: The elements to add, in order; the bin takes a reference to each.
    /// - Throws: ``GStreamerError`` (invalid argument) naming the first element that could not be added.
    public func add(_ elements: Element...) throws(GStreamerError) {
        try add(elements)
    }

    /// Adds elements to the bin (see `add(_:...)`).
    ///
    /// The corresponding C function is `gst_bin_add`.
    ///
    /// - Parameter elements: The elements to add, in order.
    /// - Throws: ``GStreamerError`` (invalid argument) naming the first element that could not be added; those
    ///   before it stay added.
    public func add(_ elements: [Element]) throws(GStreamerError) {
        for element in elements {
            if let parent = element.parent {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "cannot add \(element.name) to \(name): it is in \(parent.name) already",
                    source: element.name)
            }
            // Among the bin's own children only: GStreamer wants names unique among siblings, and
            // gst_bin_get_by_name would look into nested bins as well.
            if children.contains(where: { $0.name == element.name }) {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "cannot add \(element.name) to \(name): it has an element of that name",
                    source: element.name)
            }
            guard gst_bin_add(binPointer, element.pointer) != 0 else {
                throw GStreamerError(
                    kind: .invalidArgument, message: "cannot add \(element.name) to \(name)", source: element.name)
            }
        }
    }

    /// Removes elements from the bin, unlinking their pads. An element still running keeps its state:
    /// set it to NULL (`setState(.null)`) when it is done with.
    ///
    /// The corresponding C function is `gst_bin_remove`.
    ///
    /// - Parameter elements: The elements to remove, in order.
    /// - Throws: ``GStreamerError`` (invalid argument) naming the first element that is not a child of this
    ///   bin; those before it are removed.
    public func remove(_ elements: Element...) throws(GStreamerError) {
        for element in elements {
            guard element.parent?.pointer == pointer, gst_bin_remove(binPointer, element.pointer) != 0 else {
                throw GStreamerError(
                    kind: .invalidArgument, message: "cannot remove \(element.name): it is not in \(name)",
                    source: element.name)
            }
        }
    }

    /// Adds a ghost pad named `name` that stands for `target`, a pad of an element inside the bin, so
    /// the bin links as the element would. Returns the ghost pad.
    ///
    /// The corresponding C functions are `gst_ghost_pad_new` and `gst_element_add_pad`.
    ///
    /// - Parameters:
    ///   - name: The ghost pad's name, such as "sink" or "src".
    ///   - target: The pad inside the bin it stands for; the ghost pad takes its direction.
    /// - Returns: The ghost pad, now a pad of the bin.
    /// - Throws: ``GStreamerError`` (invalid argument) when the ghost pad cannot be made, or the bin has a pad
    ///   of that name already.
    @discardableResult
    public func addGhostPad(named name: String, target: Pad) throws(GStreamerError) -> Pad {
        let ghost = try Pad(ghostNamed: name, target: target)
        try addPad(ghost)
        return ghost
    }
}

extension Element {
    /// The bin the element is in, if any.
    ///
    /// The corresponding C function is `gst_object_get_parent`.
    public var parent: Element? {
        guard let parent = gst_object_get_parent(objectPointer) else { return nil }
        return Element.wrap(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstElement.self))
    }

    /// Brings the element to its bin's state, for an element added to a bin that runs already.
    ///
    /// The corresponding C function is `gst_element_sync_state_with_parent`.
    ///
    /// - Throws: ``GStreamerError`` (state change) when the element could not change to its parent's state.
    public func syncStateWithParent() throws(GStreamerError) {
        guard gst_element_sync_state_with_parent(pointer) != 0 else {
            throw GStreamerError(
                kind: .stateChange, message: "\(name) could not take its parent's state", source: name)
        }
    }

    /// Adds `pad` to the element (a ghost pad to a bin, usually). Throws when the element has a pad of
    /// that name or the pad belongs to another element.
    ///
    /// The corresponding C function is `gst_element_add_pad`.
    ///
    /// - Parameter pad: A pad of no element yet.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has a pad of that name, or the pad
    ///   belongs to an element.
    public func addPad(_ pad: Pad) throws(GStreamerError) {
        guard pad.parentElement == nil,
            gst_element_get_static_pad(pointer, pad.name).map({ existing in
                gst_object_unref(UnsafeMutableRawPointer(existing))
                return false
            }) ?? true, gst_element_add_pad(pointer, pad.pointer) != 0
        else {
            throw GStreamerError(kind: .invalidArgument, message: "cannot add pad \(pad.name) to \(name)", source: name)
        }
    }

    /// Removes `pad` from the element.
    ///
    /// The corresponding C function is `gst_element_remove_pad`.
    ///
    /// - Parameter pad: One of the element's pads; it is unlinked first.
    /// - Throws: ``GStreamerError`` (invalid argument) when the pad is not the element's.
    public func removePad(_ pad: Pad) throws(GStreamerError) {
        guard pad.parentElement?.pointer == pointer, gst_element_remove_pad(pointer, pad.pointer) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(pad.name) is not a pad of \(name)", source: name)
        }
    }
}
