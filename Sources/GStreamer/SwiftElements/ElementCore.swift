import CGStreamer
import CGStreamerShim

/// What every kind of Swift element shares, whichever way it meets the pipeline: the GstElement, the
/// user's implementation, its lifecycle, the buffer pool, the property values and the counters. The
/// kind's object (see ElementBody.swift) and the public handle (`SwiftElement`) both hold it; it
/// holds neither, so nothing here keeps a cycle alive.
///
/// The element is held weakly: this object may outlive it (`Element.swiftElement` hands the handle out,
/// a source's consumer may be kept by a thread of the user's), so the calls that may come from such a
/// thread check that it is still there (`whileAlive`).
///
/// (Unchecked Sendable: `implementation` is set once, during instance init, before GStreamer can call in,
/// and only read afterwards; the rest is immutable or behind locks of its own.)
final class ElementCore: @unchecked Sendable {
    /// The element. Valid while GStreamer calls in; from any other thread, reach it through `whileAlive`.
    let element: UnsafeMutablePointer<GstElement>
    /// The element, weakly: nil once it is being disposed.
    private let alive: WeakObject
    /// The element's property values.
    let properties: ElementProperties
    let lifecycle = ElementLifecycle()
    let pool = ElementBufferPool()
    let counters = SwiftElementCounters()
    /// The Swift half, made by the type's `makeDelegate` once the kind's pads and children exist.
    var implementation: (any ElementImplementation)!

    init(element: UnsafeMutablePointer<GstElement>, properties: ElementProperties) {
        self.element = element
        alive = WeakObject(UnsafeMutableRawPointer(element))
        self.properties = properties
    }

    deinit {
        pool.drop()
    }

    /// Runs `body` while the element exists, holding a reference to it meanwhile; nil once it is gone.
    func whileAlive<T>(_ body: () -> T) -> T? {
        alive.withObject { _ in body() }
    }

    /// Starts the implementation for the data about to reach it, unless it runs already (see
    /// `ElementLifecycle.ensureStarted`).
    func startForData() {
        // Every buffer asks: once running, the answer is one atomic load, without touching the implementation.
        if lifecycle.isRunning { return }
        lifecycle.ensureStarted(byData: true, implementation)
    }

    /// The element's name, such as "gray0"; empty once the element is gone.
    var name: String {
        whileAlive {
            let object = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self)
            guard let name = gst_object_get_name(object) else { return "" }
            defer { g_free(name) }
            return String(cString: name)
        } ?? ""
    }

    /// Posts a stream error from the element (nothing once it is gone).
    func postError(_ text: String, debug: String?) {
        _ = whileAlive { CGStreamerShim_element_post_error(element, 0, text, debug) }
    }
}
