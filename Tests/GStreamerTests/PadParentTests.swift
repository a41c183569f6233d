import CGStreamer
import Foundation
import Synchronization
import Testing

@testable import GStreamer

/// Pad functions once read their element without holding a reference. A Swift element's
/// pad functions reach its Swift object through the pad (`element_private`), which the element releases
/// when it is finalized, and a pad can outlive its element (a peer pushing or querying holds it for the
/// call, an application may keep one).
///
/// Measured before the fix, under AddressSanitizer (`scripts/sanitize.sh address --filter PadParentTests`):
/// no report, and these tests passed. GStreamer 1.22 holds the pad's element for every chain, event,
/// query and activation call it makes, and `gst_element_add_pad` marks each pad GST_PAD_FLAG_NEED_PARENT,
/// so the functions of a pad whose element is gone are not called: the orphan pads' queries and
/// activations below are refused before they reach Swift. So through
/// GStreamer's own entry points this is not a use after free. What the fix changes: the pad functions
/// reach the Swift object only through the element GStreamer passes (nil: they answer as a flushing pad),
/// and a pulled source's task, which GStreamer calls without one, holds its element for each turn.
@Suite("Pad functions hold their element", .bounded)
struct PadParentTests {
    /// A filter that counts what reaches it and drops it (nothing downstream needs it here).
    final class CountingFilter: ElementImplementation {
        static let rendered = Atomic<Int>(0)
        func initialize() throws {}
        func render(_ sample: Sample) -> FlowResult {
            Self.rendered.add(1, ordering: .relaxed)
            return .ok
        }
    }

    /// A pulled source that never makes anything: only its pad's activation matters here.
    final class IdleSource: ElementImplementation {
        func initialize() throws {}
    }

    static func register() throws {
        try ElementType.register(
            ElementTypeDescription(
                name: "padparentfilter", longName: "Pad parent filter", classification: "Filter/Video",
                description: "Counts buffers", kind: .filter)
        ) { _ in CountingFilter() }
        var source = ElementTypeDescription(
            name: "padparentsource", longName: "Pad parent source", classification: "Source/Video",
            description: "Makes nothing", kind: .source)
        source.pulled = true
        try ElementType.register(source) { _ in IdleSource() }
    }

    /// A caps query on `pad`: whether a pad function answered it.
    static func capsQuery(_ pad: UnsafeMutablePointer<GstPad>) -> Bool {
        let query = gst_query_new_caps(nil)!
        defer { gst_query_unref(query) }
        return gst_pad_query(pad, query) != 0
    }

    // A Swift filter removed from a running pipeline, set to NULL and released on another
    // thread while buffers flow and its pads are queried; its pads, kept, then answer as flushing pads.
    @Test("A Swift filter removed from a running pipeline while buffers flow", .timeLimit(.minutes(2)))
    func removedWhileDataFlows() throws {
        try GStreamer.initialize()
        try Self.register()
        for round in 0..<8 {
            let pipeline = try Pipeline(
                launch: "videotestsrc ! video/x-raw,width=64,height=48 ! padparentfilter name=f ! fakesink")
            let bin = UnsafeMutableRawPointer(pipeline.pointer).assumingMemoryBound(to: GstBin.self)
            let filter = try #require(gst_bin_get_by_name(bin, "f"))
            // What a peer holds while it pushes or queries, and an application may keep.
            let sinkPad = try #require(gst_element_get_static_pad(filter, "sink"))
            let srcPad = try #require(gst_element_get_static_pad(filter, "src"))
            defer {
                gst_object_unref(UnsafeMutableRawPointer(sinkPad))
                gst_object_unref(UnsafeMutableRawPointer(srcPad))
            }
            let before = CountingFilter.rendered.load(ordering: .relaxed)
            try pipeline.play()
            let deadline = Date().addingTimeInterval(30)
            while CountingFilter.rendered.load(ordering: .relaxed) < before + 3 && Date() < deadline {
                usleep(1000)
            }
            #expect(CountingFilter.rendered.load(ordering: .relaxed) >= before + 3, "round \(round): buffers flowed")

            // A thread stands for the peers: it queries both pads until the element is gone and after.
            let removed = Atomic<Bool>(false)
            let queriesAfter = Atomic<Int>(0)
            let querierDone = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let pads = (sinkPad, srcPad)
            let querier = Thread {
                while queriesAfter.load(ordering: .relaxed) < 200 {
                    _ = Self.capsQuery(pads.0)
                    _ = Self.capsQuery(pads.1)
                    if removed.load(ordering: .acquiring) { queriesAfter.add(1, ordering: .relaxed) }
                }
                querierDone.signal()
            }
            querier.start()

            // Another thread removes the filter while the source pushes into it, and lets it go.
            nonisolated(unsafe) let handles = (bin, filter)
            let removerDone = DispatchSemaphore(value: 0)
            let remover = Thread {
                gst_bin_remove(handles.0, handles.1)
                gst_element_set_state(handles.1, GST_STATE_NULL)
                gst_object_unref(UnsafeMutableRawPointer(handles.1))
                removed.store(true, ordering: .releasing)
                removerDone.signal()
            }
            remover.start()
            #expect(removerDone.wait(timeout: .now() + 60) == .success, "round \(round): the removal finished")
            #expect(querierDone.wait(timeout: .now() + 60) == .success, "round \(round): the queries finished")
            pipeline.stop()

            // Nothing holds the element now: it is finalized, and its pads live on with us alone.
            #expect(hasNoElement(sinkPad), "round \(round): the sink pad has no element")
            let needParent = GST_PAD_FLAG_NEED_PARENT.rawValue
            #expect(sinkPad.pointee.object.flags & needParent != 0, "GStreamer calls it only with its element")
            #expect(!Self.capsQuery(sinkPad), "round \(round): an orphan sink pad answers no query")
            #expect(!Self.capsQuery(srcPad), "round \(round): an orphan source pad answers no query")
            // Nor can it be made active again: no chain or event call can follow.
            #expect(gst_pad_set_active(sinkPad, 1) == 0, "round \(round): an orphan sink pad stays inactive")
        }
    }

    @Test("A pulled source's pad, kept after its element is gone, refuses to start its task")
    func orphanSourcePadActivation() throws {
        try GStreamer.initialize()
        try Self.register()
        for _ in 0..<4 {
            let source = try #require(gst_element_factory_make("padparentsource", nil))
            gst_object_ref_sink(UnsafeMutableRawPointer(source))
            let pad = try #require(gst_element_get_static_pad(source, "src"))
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            gst_object_unref(UnsafeMutableRawPointer(source))
            #expect(hasNoElement(pad))
            #expect(gst_pad_set_active(pad, 1) == 0, "no element, no task")
            #expect(gst_pad_get_task_state(pad) == GST_TASK_STOPPED)
        }
    }
}

/// Whether a pad's parent is gone (GST_OBJECT_PARENT is a macro Swift cannot call).
private func hasNoElement(_ pad: UnsafeMutablePointer<GstPad>) -> Bool {
    pad.pointee.object.parent == nil
}
