import CGStreamer

/// Which way data flows through a pad.
///
/// The corresponding C type is `GstPadDirection`.
public enum PadDirection: Sendable, Equatable {
    /// `source`: data leaves the element through it (`GST_PAD_SRC`); `sink`: data enters
    /// (`GST_PAD_SINK`); `unknown`: not said (`GST_PAD_UNKNOWN`).
    case source, sink, unknown

    init(_ direction: GstPadDirection) {
        switch direction {
        case GST_PAD_SRC: self = .source
        case GST_PAD_SINK: self = .sink
        default: self = .unknown
        }
    }
}

/// When a pad exists: always (made with the element), sometimes (made when data shows what it is,
/// such as a demuxer's streams) or on request (a tee's branches, a muxer's inputs).
///
/// The corresponding C type is `GstPadPresence`.
public enum PadPresence: Sendable, Equatable {
    /// `always` (`GST_PAD_ALWAYS`), `sometimes` (`GST_PAD_SOMETIMES`: watch `pad-added`) or `request`
    /// (`GST_PAD_REQUEST`: ask with `requestPad`).
    case always, sometimes, request

    init(_ presence: GstPadPresence) {
        switch presence {
        case GST_PAD_SOMETIMES: self = .sometimes
        case GST_PAD_REQUEST: self = .request
        default: self = .always
        }
    }
}

/// A description of the pads an element of a type can have.
///
/// The corresponding C type is `GstPadTemplate`.
public struct PadTemplate: Sendable {
    /// The name, or the pattern of names (`sink_%u`).
    public let name: String
    /// Whether the pads are source or sink pads.
    public let direction: PadDirection
    /// When the pads exist.
    public let presence: PadPresence
    /// Every format such pads can carry, such as `audio/x-raw, format=(string){ S16LE, ... }`.
    ///
    /// The corresponding C functions are `gst_pad_template_get_caps` and `gst_static_pad_template_get_caps`.
    public let caps: Caps

    init(_ template: UnsafeMutablePointer<GstPadTemplate>) {
        name = template.pointee.name_template.map { String(cString: $0) } ?? ""
        direction = PadDirection(template.pointee.direction)
        presence = PadPresence(template.pointee.presence)
        caps = Caps(taking: gst_pad_template_get_caps(template))
    }

    init(_ template: UnsafeMutablePointer<GstStaticPadTemplate>) {
        name = template.pointee.name_template.map { String(cString: $0) } ?? ""
        direction = PadDirection(template.pointee.direction)
        presence = PadPresence(template.pointee.presence)
        caps = Caps(taking: gst_static_pad_template_get_caps(template))
    }
}

extension Pad {
    /// The pad's direction.
    ///
    /// The corresponding C function is `gst_pad_get_direction`.
    public var direction: PadDirection { PadDirection(gst_pad_get_direction(pointer)) }

    /// The template the pad was made from, if any (ghost pads made by hand have none).
    ///
    /// The corresponding C function is `gst_pad_get_pad_template`.
    public var template: PadTemplate? {
        guard let template = gst_pad_get_pad_template(pointer) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(template)) }
        return PadTemplate(template)
    }
}

extension Element {
    /// The element's pads as they are now.
    ///
    /// The corresponding C function is `gst_element_iterate_pads`.
    public var pads: [Pad] {
        var result: [Pad] = []
        guard let iterator = gst_element_iterate_pads(pointer) else { return result }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&value) {
                result.append(Pad(object.assumingMemoryBound(to: GstPad.self), owned: false))
            }
            g_value_reset(&value)
        }
        g_value_unset(&value)
        return result
    }

    /// The pad templates of the element's type: every pad it can have.
    ///
    /// The corresponding C function is `gst_element_class_get_pad_template_list`.
    public var padTemplates: [PadTemplate] {
        guard let instanceClass = pointer.pointee.object.object.g_type_instance.g_class else { return [] }
        let elementClass = UnsafeMutableRawPointer(instanceClass).assumingMemoryBound(to: GstElementClass.self)
        var result: [PadTemplate] = []
        var node = gst_element_class_get_pad_template_list(elementClass)
        while let current = node {
            if let data = current.pointee.data {
                result.append(PadTemplate(data.assumingMemoryBound(to: GstPadTemplate.self)))
            }
            node = current.pointee.next
        }
        return result
    }
}
