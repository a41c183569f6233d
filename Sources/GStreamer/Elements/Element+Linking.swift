import CGStreamer
import CGStreamerShim

// Linking elements in code: by compatible pads, through a caps filter, by pad names; and the pads
// an element makes on request (a tee's branches, a muxer's inputs).

extension Element {
    /// Links this element to `other`: a free source pad of this one to a free sink pad of the other,
    /// chosen by GStreamer; with `filter`, only through caps that fit it (as a capsfilter would).
    ///
    /// The corresponding C functions are `gst_element_link` and `gst_element_link_filtered`.
    ///
    /// - Parameters:
    ///   - other: The downstream element, in the same bin.
    ///   - filter: Caps the link must fit, or nil for any.
    /// - Throws: ``GStreamerError`` (invalid argument) when no pads could be linked (through `filter`).
    public func link(to other: Element, filter: Caps? = nil) throws(GStreamerError) {
        let linked =
            if let filter {
                gst_element_link_filtered(pointer, other.pointer, filter.pointer)
            } else {
                gst_element_link(pointer, other.pointer)
            }
        guard linked != 0 else {
            let through = filter.map { " through \($0)" } ?? ""
            throw GStreamerError(
                kind: .invalidArgument, message: "could not link \(name) to \(other.name)\(through)", source: name)
        }
    }

    /// Links the source pad named `sourcePad` of this element to the sink pad named `sinkPad` of
    /// `other` (nil: any compatible pad), requesting pads by template name (`src_%u`) when needed.
    ///
    /// The corresponding C functions are `gst_element_link_pads` and `gst_element_link_pads_filtered`.
    ///
    /// - Parameters:
    ///   - sourcePad: The name of this element's source pad or request template, or nil for any.
    ///   - other: The downstream element, in the same bin.
    ///   - sinkPad: The name of `other`'s sink pad or request template, or nil for any.
    ///   - filter: Caps the link must fit, or nil for any.
    /// - Throws: ``GStreamerError`` (invalid argument) when the pads could not be linked.
    public func link(
        sourcePad: String?, to other: Element, sinkPad: String?, filter: Caps? = nil
    ) throws(GStreamerError) {
        let linked =
            if let filter {
                gst_element_link_pads_filtered(pointer, sourcePad, other.pointer, sinkPad, filter.pointer)
            } else {
                gst_element_link_pads(pointer, sourcePad, other.pointer, sinkPad)
            }
        guard linked != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "could not link \(name):\(sourcePad ?? "any") to \(other.name):\(sinkPad ?? "any")",
                source: name)
        }
    }

    /// Links elements in a chain, each to the next, as `a ! b ! c` does.
    ///
    /// The corresponding C function is `gst_element_link_many`.
    ///
    /// - Parameter elements: The elements, upstream first, all in the same bin.
    /// - Throws: ``GStreamerError`` (invalid argument) for the first pair that could not be linked; the links
    ///   made before it are undone, so the chain is linked whole or not at all (a half-linked chain
    ///   would look built and fail later, not-linked, far from the cause).
    public static func link(_ elements: Element...) throws(GStreamerError) {
        var linked: [(Element, Element)] = []
        for (upstream, downstream) in zip(elements, elements.dropFirst()) {
            do {
                try upstream.link(to: downstream)
            } catch {
                for (earlier, later) in linked.reversed() { earlier.unlink(from: later) }
                throw error
            }
            linked.append((upstream, downstream))
        }
    }

    /// Unlinks every pad of this element that is linked to `other`.
    ///
    /// The corresponding C function is `gst_element_unlink`.
    ///
    /// - Parameter other: The downstream element.
    public func unlink(from other: Element) {
        gst_element_unlink(pointer, other.pointer)
    }

    /// Asks the element for a new pad from its request template named `template` (`"src_%u"` on a
    /// tee, `"audio_%u"` on a muxer), named `name` when given, else the next free name
    /// (`src_0`, `src_1`, ...). Give it back with `releaseRequestPad` when the branch goes.
    ///
    /// The corresponding C functions are `gst_element_class_get_pad_template` and `gst_element_request_pad`.
    ///
    /// - Parameters:
    ///   - template: The request template's name, such as `"src_%u"`.
    ///   - name: The pad's name, or nil for the next free one.
    ///   - caps: Caps the pad should have, for elements that choose by caps (a muxer), or nil.
    /// - Returns: The new pad.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such request template (the message
    ///   lists those there are), or the element gives no pad.
    public func requestPad(
        _ template: String, name: String? = nil, caps: Caps? = nil
    ) throws(GStreamerError) -> Pad {
        guard let padTemplate = CGStreamerShim_element_get_pad_template(pointer, template) else {
            let templates = padTemplates.filter { $0.presence == .request }.map(\.name)
            let known = templates.isEmpty ? "it has no request pads" : "it has \(templates.joined(separator: ", "))"
            throw GStreamerError(
                kind: .invalidArgument, message: "\(self.name) has no pad template \"\(template)\": \(known)",
                source: self.name)
        }
        guard padTemplate.pointee.presence == GST_PAD_REQUEST,
            let pad = gst_element_request_pad(pointer, padTemplate, name, caps?.pointer)
        else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(self.name) gave no pad for template \"\(template)\"",
                source: self.name)
        }
        return Pad(pad, owned: true)
    }

    /// Gives back a pad that `requestPad` made; the element removes it.
    ///
    /// The corresponding C function is `gst_element_release_request_pad`.
    ///
    /// - Parameter pad: A pad from ``requestPad(_:name:caps:)``; unlink it first.
    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(pointer, pad.pointer)
    }
}

extension Pad {
    /// A ghost pad named `name` standing for `target` (a pad of an element inside a bin), to add to
    /// the bin with `Element.addPad`. Its direction is the target's.
    ///
    /// The corresponding C function is `gst_ghost_pad_new`.
    ///
    /// - Parameters:
    ///   - name: The ghost pad's name.
    ///   - target: The pad it stands for.
    /// - Throws: ``GStreamerError`` (invalid argument) when GStreamer cannot make the ghost pad.
    public convenience init(ghostNamed name: String, target: Pad) throws(GStreamerError) {
        guard let ghost = gst_ghost_pad_new(name, target.pointer) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "could not make a ghost pad \(name) for \(target.name)")
        }
        // A new pad is floating: the wrapper takes the reference for its own.
        gst_object_ref_sink(UnsafeMutableRawPointer(ghost))
        self.init(ghost, owned: true)
    }

    /// For a ghost pad, the pad it stands for; nil for any other pad.
    ///
    /// The corresponding C function is `gst_ghost_pad_get_target`.
    public var ghostTarget: Pad? {
        guard g_type_is_a(CGStreamerShim_object_type(pointer), gst_ghost_pad_get_type()) != 0,
            let target = gst_ghost_pad_get_target(
                UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstGhostPad.self))
        else { return nil }
        return Pad(target, owned: true)
    }

    /// The pad this one is linked to.
    ///
    /// The corresponding C function is `gst_pad_get_peer`.
    public var peer: Pad? {
        gst_pad_get_peer(pointer).map { Pad($0, owned: true) }
    }

    /// The element the pad belongs to.
    ///
    /// The corresponding C function is `gst_pad_get_parent_element`.
    public var parentElement: Element? {
        gst_pad_get_parent_element(pointer).map { Element.wrap($0) }
    }

    /// Links this source pad to the sink pad `other`. Throws GStreamer's reason when they cannot link
    /// (wrong direction, no common format, already linked, not in the same bin).
    ///
    /// The corresponding C function is `gst_pad_link`.
    ///
    /// - Parameter other: A sink pad.
    /// - Throws: ``GStreamerError`` (invalid argument) with the reason, such as "was linked" or "no format".
    public func link(to other: Pad) throws(GStreamerError) {
        let result = gst_pad_link(pointer, other.pointer)
        guard result == GST_PAD_LINK_OK else {
            throw linkFailure(to: other, reason: gst_pad_link_get_name(result).map { String(cString: $0) } ?? "failed")
        }
    }

    /// "could not link a:src to b:sink: reason", from this pad's element.
    private func linkFailure(to other: Pad, reason: String) -> GStreamerError {
        let owner = parentElement?.name
        return GStreamerError(
            kind: .invalidArgument,
            message: "could not link \(owner.map { "\($0):" } ?? "")\(name) to "
                + "\(other.parentElement.map { "\($0.name):" } ?? "")\(other.name): \(reason)",
            source: owner)
    }

    /// Links this source pad to the sink pad `other` when they are in different bins (an element in a
    /// `( ... )` bin of a description and one beside it): ghost pads are added on the bins between
    /// them as needed. Pads in the same bin are linked as by ``link(to:)``.
    ///
    /// The corresponding C function is `gst_pad_link_maybe_ghosting`.
    ///
    /// - Parameter other: A sink pad, in this pad's bin or in another one of the same pipeline.
    /// - Throws: ``GStreamerError`` (invalid argument) when they cannot be linked, even through ghost
    ///   pads: no common format, already linked, or not in one pipeline.
    public func linkAcrossBins(to other: Pad) throws(GStreamerError) {
        guard gst_pad_link_maybe_ghosting(pointer, other.pointer) == 0 else { return }
        throw linkFailure(to: other, reason: "not even through ghost pads")
    }

    /// Unlinks this source pad from `other`; false when they were not linked.
    ///
    /// The corresponding C function is `gst_pad_unlink`.
    ///
    /// - Parameter other: The sink pad this pad is linked to.
    /// - Returns: Whether they were linked (and now are not).
    @discardableResult
    public func unlink(from other: Pad) -> Bool {
        gst_pad_unlink(pointer, other.pointer) != 0
    }
}
