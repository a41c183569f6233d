import CGStreamer
import Foundation
import GstPipeElements
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// What crossed a pad, in order: "buffer@PTS", an event's type name, or "custom-downstream:NAME".
final class PadLog: Sendable {
    let entries = Locked<[String]>([])
    /// Events to push upstream of the filter when a buffer with this index is about to leave the source.
    let injectBefore: Int
    let buffersSeen = Locked(0)

    init(injectBefore: Int = -1) { self.injectBefore = injectBefore }

    var all: [String] { entries.withLock { $0 } }

    static func describe(_ info: UnsafeMutablePointer<GstPadProbeInfo>) -> String? {
        guard let data = info.pointee.data else { return nil }
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            return "buffer@\(data.assumingMemoryBound(to: GstBuffer.self).pointee.pts)"
        }
        guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_BOTH.rawValue != 0 else { return nil }
        let event = data.assumingMemoryBound(to: GstEvent.self)
        var name = String(cString: gst_event_type_get_name(event.pointee.type))
        if let structure = gst_event_get_structure(event),
            [GST_EVENT_CUSTOM_DOWNSTREAM, GST_EVENT_CUSTOM_DOWNSTREAM_OOB, GST_EVENT_CUSTOM_UPSTREAM].contains(
                event.pointee.type)
        {
            name += ":" + String(cString: gst_structure_get_name(structure))
        }
        if event.pointee.type == GST_EVENT_TAG {
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &tags)
            var title: UnsafeMutablePointer<gchar>?
            if let tags, gst_tag_list_get_string(tags, "title", &title) != 0, let title {
                name += ":title=" + String(cString: title)
                g_free(title)
            }
        }
        return name
    }

    /// Records what passes `pad` (the kinds in `mask`).
    func watch(_ pad: UnsafeMutablePointer<GstPad>, _ mask: GstPadProbeType) {
        gst_pad_add_probe(
            pad, mask,
            { _, info, userData in
                let log = Unmanaged<PadLog>.fromOpaque(userData!).takeUnretainedValue()
                if let info, let entry = PadLog.describe(info) { log.entries.withLock { $0.append(entry) } }
                return GST_PAD_PROBE_OK
            }, Unmanaged.passRetained(self).toOpaque(), { Unmanaged<PadLog>.fromOpaque($0!).release() })
    }

    /// Before buffer `injectBefore` leaves `pad`, pushes a custom serialized event, a tag, a gap, an
    /// out-of-band custom event and an instant rate change; before end of stream, stream-group-done.
    func inject(on pad: UnsafeMutablePointer<GstPad>) {
        gst_pad_add_probe(
            pad, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue),
            { pad, info, userData in
                let log = Unmanaged<PadLog>.fromOpaque(userData!).takeUnretainedValue()
                guard let pad, let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
                if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
                    let index = log.buffersSeen.withLock { count in
                        defer { count += 1 }
                        return count
                    }
                    guard index == log.injectBefore else { return GST_PAD_PROBE_OK }
                    let pts = data.assumingMemoryBound(to: GstBuffer.self).pointee.pts
                    _ = gst_pad_push_event(
                        pad, gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty("marker")))
                    _ = gst_pad_push_event(
                        pad, gst_event_new_tag(gst_tag_list_new_from_string("taglist, title=(string)hello")))
                    _ = gst_pad_push_event(pad, gst_event_new_gap(pts, 1_000_000))
                    _ = gst_pad_push_event(
                        pad,
                        gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM_OOB, gst_structure_new_empty("oob-marker")))
                    _ = gst_pad_push_event(pad, gst_event_new_instant_rate_change(2.0, GST_SEGMENT_FLAG_NONE))
                } else if data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS {
                    _ = gst_pad_push_event(pad, gst_event_new_stream_group_done(7))
                }
                return GST_PAD_PROBE_OK
            }, Unmanaged.passRetained(self).toOpaque(), { Unmanaged<PadLog>.fromOpaque($0!).release() })
    }
}

@Suite("Events cross Swift filters in order with the buffers", .bounded)
struct EventTests {
    static let source =
        "videotestsrc name=src num-buffers=4 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1"

    func pad(_ pipeline: Pipeline, _ element: String, _ name: String) throws -> UnsafeMutablePointer<GstPad> {
        let found = try #require(pipeline.element(named: element))
        let pad = try #require(gst_element_get_static_pad(found.pointer, name))
        gst_object_unref(UnsafeMutableRawPointer(pad))  // the element keeps it
        return pad
    }

    /// What reaches the sink through `filter`, and what reaches the source from the sink upstream.
    func eventsThrough(_ filter: String, source: String) async throws -> (downstream: [String], upstream: [String]) {
        try GstPipeElements.register()
        let pipeline = try Pipeline(launch: "\(source) ! \(filter) name=f ! fakesink name=sink")
        let seen = PadLog()
        let injector = PadLog(injectBefore: 2)
        let upstream = PadLog()
        seen.watch(try pad(pipeline, "sink", "sink"), GST_PAD_PROBE_TYPE_DATA_DOWNSTREAM)
        injector.inject(on: try pad(pipeline, "src", "src"))
        upstream.watch(try pad(pipeline, "src", "src"), GST_PAD_PROBE_TYPE_EVENT_UPSTREAM)
        // A custom upstream event from the sink's pad once the first buffer is there.
        gst_pad_add_probe(
            try pad(pipeline, "sink", "sink"), GST_PAD_PROBE_TYPE_BUFFER,
            { pad, _, _ in
                _ = gst_pad_push_event(
                    pad, gst_event_new_custom(GST_EVENT_CUSTOM_UPSTREAM, gst_structure_new_empty("up-marker")))
                return GST_PAD_PROBE_REMOVE
            }, nil, nil)
        try await pipeline.run()
        return (seen.all, upstream.all)
    }

    @Test(
        "Through gray and mono, the sink sees what it sees through identity: every event in its place among the buffers",
        arguments: [
            ("gray", source),
            (
                "mono",
                "audiotestsrc name=src num-buffers=4 samplesperbuffer=480 ! audio/x-raw,format=S16LE,channels=2,rate=48000"
            )
        ])
    func downstreamOrder(filter: String, source: String) async throws {
        let (entries, upstream) = try await eventsThrough(filter, source: source)
        let (reference, referenceUpstream) = try await eventsThrough("identity", source: source)
        // The out-of-band event may overtake a buffer; everything else keeps its place.
        let inBand = entries.filter { $0 != "custom-downstream-oob:oob-marker" }
        #expect(inBand == reference.filter { $0 != "custom-downstream-oob:oob-marker" }, "\(entries)\n\(reference)")
        #expect(entries.contains("custom-downstream-oob:oob-marker"), "\(entries)")
        let buffers = entries.filter { $0.hasPrefix("buffer@") }
        #expect(buffers.count == 4, "\(entries)")
        #expect(Array(entries.prefix(3)) == ["stream-start", "caps", "segment"], "\(entries)")
        let second = try #require(entries.firstIndex(of: buffers[1]))
        #expect(
            Array(inBand.drop { $0 != buffers[1] }.dropFirst().prefix(3)) == [
                "custom-downstream:marker", "tag:title=hello", "gap"
            ],
            "\(entries)")
        #expect(second < entries.firstIndex(of: buffers[2])!)
        #expect(
            upstream.filter { $0.hasPrefix("custom-upstream") }
                == referenceUpstream.filter { $0.hasPrefix("custom-upstream") })
        #expect(upstream.contains("custom-upstream:up-marker"), "\(upstream)")
    }

    @Test(
        "After a flushing seek the segment goes out again before the next buffer; after READY, everything sticky again")
    func stickyAgain() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=60 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 "
                + "! gray ! fakesink name=sink sync=false")
        let seen = PadLog()
        seen.watch(
            try pad(pipeline, "sink", "sink"),
            GstPadProbeType(GST_PAD_PROBE_TYPE_DATA_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue))
        try pipeline.pause()
        _ = pipeline.state(timeout: 5_000_000_000)
        let before = seen.all.count
        #expect(pipeline.seek(to: 1_000_000_000))
        _ = pipeline.state(timeout: 5_000_000_000)
        let afterSeek = Array(seen.all.dropFirst(before))
        let flushStop = try #require(afterSeek.firstIndex(of: "flush-stop"), "\(afterSeek)")
        let segment = try #require(afterSeek[flushStop...].firstIndex(of: "segment"), "\(afterSeek)")
        let buffer = try #require(afterSeek.firstIndex { $0.hasPrefix("buffer@") }, "\(afterSeek)")
        #expect(afterSeek.first == "flush-start")
        #expect(segment < buffer && afterSeek[buffer] == "buffer@1000000000", "\(afterSeek)")

        // Down to READY and a new run: stream start, caps and segment again, before any buffer.
        _ = try pipeline.setState(.ready)
        let cleared = seen.all.count
        try await pipeline.run()
        let rerun = Array(seen.all.dropFirst(cleared))
        #expect(Array(rerun.prefix(4)) == ["stream-start", "caps", "segment", "buffer@0"], "\(rerun.prefix(6))")
        #expect(rerun.filter { $0.hasPrefix("buffer@") }.count == 60)
    }
}
