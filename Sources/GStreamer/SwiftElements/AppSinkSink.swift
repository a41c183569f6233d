import CGStreamer
import CGStreamerShim

/// A sink: a bin around an appsink (one buffer queued, `sync` as the element's property says), with
/// the type's converters in front of it (`sinkConverters`, such as audioconvert) so that any input
/// reaches the user's code in the format it asked for. `render` runs on the appsink's streaming thread,
/// synchronously, from its new-sample callback; end of stream and flushes reach the implementation
/// from the appsink too.
///
/// (Unchecked Sendable: the pointers are references held from init to deinit.)
final class AppSinkSink: ElementBody, @unchecked Sendable {
    static let appFactories = ["appsink"]
    static let isPlainElement = false

    /// The appsink's settings: frames rendered at their time (the element's `sync` property), prerolled,
    /// one queued, no copy kept as the last sample, end of stream after the queued frames, no signals
    /// (callbacks instead).
    private static let settings: KeyValuePairs<String, String> = [
        "sync": "true", "async": "true", "enable-last-sample": "false",
        "max-buffers": "1", "emit-signals": "false", "wait-on-eos": "true"
    ]

    private let core: ElementCore
    var srcPad: UnsafeMutablePointer<GstPad>? { nil }
    /// The bin's ghost sink pad, leading to the first converter or to the appsink (a reference of
    /// ours, as the appsink).
    private let sinkPad: UnsafeMutablePointer<GstPad>
    private let appsink: UnsafeMutablePointer<GstElement>

    private var sink: UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self)
    }

    init(core: ElementCore, description: ElementTypeDescription) {
        self.core = core
        appsink = ElementPads.addChild(to: core.element, factory: "appsink", properties: Self.settings)
        if let template = gst_caps_from_string(description.sinkCaps) {
            gst_app_sink_set_caps(UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self), template)
            gst_caps_unref(template)
        }
        // The converters sit in front of the appsink: the ghost pad leads to the first of them.
        let bin = UnsafeMutableRawPointer(core.element).assumingMemoryBound(to: GstBin.self)
        var entry = appsink
        for name in description.sinkConverters.reversed() {
            guard let converter = gst_element_factory_make(name, nil) else { continue }
            gst_bin_add(bin, converter)
            gst_element_link(converter, entry)
            entry = converter
        }
        sinkPad = ElementPads.addGhost(to: core.element, name: "sink", target: entry)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(sinkPad))
        gst_object_unref(UnsafeMutableRawPointer(appsink))
    }

    func installCallbacks() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, userData in
            let core = ElementPads.owner(ofUserData: userData, as: AppSinkSink.self).core
            guard let pulled = gst_app_sink_pull_sample(sink) else { return GST_FLOW_FLUSHING }
            core.startForData()
            let started = core.counters.now
            let result = core.implementation.render(Sample(taking: pulled))
            core.counters.called(frameIn: true, since: started)
            return result.gstFlow
        }
        callbacks.eos = { _, userData in
            ElementPads.owner(ofUserData: userData, as: AppSinkSink.self).core.implementation.endOfStream()
        }
        gst_app_sink_set_callbacks(sink, &callbacks, me, nil)

        // A render may be waiting (a pull sink whose queue is full): a flush must reach it.
        let appsinkPad = gst_element_get_static_pad(appsink, "sink")!
        defer { gst_object_unref(UnsafeMutableRawPointer(appsinkPad)) }
        gst_pad_add_probe(
            appsinkPad, GST_PAD_PROBE_TYPE_EVENT_FLUSH,
            { _, info, userData in
                guard let data = info?.pointee.data else { return GST_PAD_PROBE_OK }
                let implementation = ElementPads.owner(ofUserData: userData, as: AppSinkSink.self).core.implementation!
                switch data.assumingMemoryBound(to: GstEvent.self).pointee.type {
                case GST_EVENT_FLUSH_START: implementation.flushStarted()
                case GST_EVENT_FLUSH_STOP: implementation.flushed()
                default: break
                }
                return GST_PAD_PROBE_OK
            }, me, nil)
    }

    func push(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime) -> FlowResult {
        // A sink has nowhere to push to.
        core.whileAlive { FlowResult.error } ?? .flushing
    }

    func endOfStream() -> FlowResult {
        core.whileAlive { FlowResult.error } ?? .flushing
    }

    func restrictSinkCaps(_ caps: Caps) {
        gst_app_sink_set_caps(sink, caps.pointer)
    }

    /// The element's `sync` property is the appsink's.
    func propertyChanged(_ spec: PropertySpec) {
        guard spec.name == "sync" else { return }
        CGStreamerShim_object_set_from_string(appsink, "sync", core.properties.bool("sync") ? "true" : "false")
    }
}
