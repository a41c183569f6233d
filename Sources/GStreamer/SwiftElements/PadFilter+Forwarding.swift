import CGStreamer

// A filter looks like one element to the rest of the pipeline: what reaches one of its pads and is not
// about the data passing through travels on through the other. Upstream events (seek, QoS, navigation,
// reconfigure, custom) go up through the sink pad; queries about the stream (position, duration,
// seeking, ...) are answered by upstream; latency is upstream's plus the filter's own. Caps are asked
// across the element, through the implementation's `transformCaps`, within each pad's template.

extension PadFilter {
    /// The pads' query function and the source pad's event function.
    func installForwarding() {
        for pad in [sinkPad, ownSrcPad] {
            gst_pad_set_query_function_full(
                pad,
                { pad, parent, query in
                    guard let pad, let query,
                        let filter = ElementPads.owner(of: pad, parent: parent, as: PadFilter.self)
                    else { return 0 }
                    return filter.answer(query, on: pad, parent: parent)
                }, nil, nil)
        }
        gst_pad_set_event_function_full(
            ownSrcPad,
            { pad, parent, event in
                guard let event else { return 0 }
                guard let filter = ElementPads.owner(of: pad, parent: parent, as: PadFilter.self) else {
                    gst_event_unref(event)
                    return 0
                }
                return gst_pad_push_event(filter.sinkPad, event)
            }, nil, nil)
    }

    /// A query reaching either pad.
    private func answer(
        _ query: UnsafeMutablePointer<GstQuery>, on pad: UnsafeMutablePointer<GstPad>,
        parent: UnsafeMutablePointer<GstObject>?
    ) -> gboolean {
        let onSink = pad == sinkPad
        switch query.pointee.type {
        case GST_QUERY_CAPS:
            return answerCapsQuery(query, for: pad)
        case GST_QUERY_ACCEPT_CAPS where onSink:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_accept_caps(query, &caps)
            guard let caps else { return 0 }
            let allowed = allowedCaps(for: pad, filter: nil)
            let accepted = withExtendedLifetime(allowed) { gst_caps_can_intersect(caps, allowed.pointer) }
            gst_query_set_accept_caps_result(query, accepted)
            return 1
        case GST_QUERY_LATENCY where !onSink:
            guard gst_pad_peer_query(sinkPad, query) != 0 else { return 0 }
            let added = GstClockTime(core.implementation.latency)
            guard added > 0 else { return 1 }
            var live: gboolean = 0
            var minimum: GstClockTime = 0
            var maximum: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minimum, &maximum)
            gst_query_set_latency(query, live, minimum + added, maximum == GstClockTime.max ? maximum : maximum + added)
            return 1
        case GST_QUERY_POSITION, GST_QUERY_DURATION, GST_QUERY_SEEKING, GST_QUERY_CONVERT,
            GST_QUERY_SEGMENT, GST_QUERY_URI, GST_QUERY_FORMATS, GST_QUERY_BUFFERING:
            // Asked from downstream, answered by upstream, as for any filter.
            guard !onSink else { return gst_pad_query_default(pad, parent, query) }
            return gst_pad_peer_query(sinkPad, query)
        default:
            return gst_pad_query_default(pad, parent, query)
        }
    }

    /// Answers a caps query on `pad` with what it can take or give, within the query's filter.
    private func answerCapsQuery(
        _ query: UnsafeMutablePointer<GstQuery>, for pad: UnsafeMutablePointer<GstPad>
    ) -> gboolean {
        var filter: UnsafeMutablePointer<GstCaps>?
        gst_query_parse_caps(query, &filter)
        let result = allowedCaps(for: pad, filter: filter)
        withExtendedLifetime(result) { gst_query_set_caps_result(query, result.pointer) }
        return 1
    }

    /// Caps `pad` can handle, asking the peer of the pad on the other side.
    private func allowedCaps(for pad: UnsafeMutablePointer<GstPad>, filter: UnsafeMutablePointer<GstCaps>?) -> Caps {
        let isSink = pad == sinkPad
        let otherPad = isSink ? ownSrcPad : sinkPad
        let otherTemplate = templateCaps(otherPad)
        let peer = withExtendedLifetime(otherTemplate) {
            Caps(taking: gst_pad_peer_query_caps(otherPad, otherTemplate.pointer))
        }
        var result = core.implementation.transformCaps(peer, towardsSink: isSink).intersect(templateCaps(pad))
        if isSink, let restriction = restriction.withLock({ $0 }) { result = result.intersect(restriction) }
        if let filter {
            result = Caps(taking: gst_caps_intersect_full(filter, result.pointer, GST_CAPS_INTERSECT_FIRST))
        }
        return result
    }

    private func templateCaps(_ pad: UnsafeMutablePointer<GstPad>) -> Caps {
        Caps(taking: gst_pad_get_pad_template_caps(pad))
    }
}
