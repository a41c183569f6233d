import CGStreamer
import CGStreamerShim

// Each kind of Swift element is a small type over the shared parts (ElementCore: lifecycle, pool,
// counters), as GStreamer gives each kind a base class (GstBaseSrc, GstBaseSink, GstBaseTransform)
// and an element fills in what differs:
//
//   AppSrcSource  a source pushing from threads of its own: a bin around an appsrc and its queue
//   PadSource     a source made on request: its own source pad and streaming thread (a pad task)
//   AppSinkSink   a sink: a bin around an appsink, with converters in front of it
//   PadFilter     a filter: its own sink and source pads, on the upstream streaming thread
//
// The kind is chosen once, when an instance is made (`ElementTypeDescription.bodyType`); after that
// the public handle (`SwiftElement`) hands each call to the kind's object, and nothing asks which
// kind it is.

/// What differs between the kinds of Swift element: the pads and children, the callbacks GStreamer
/// makes, the way data leaves and the end of a run.
protocol ElementBody: AnyObject, Sendable {
    /// The app plugin's factories the kind needs (checked at registration and when an instance is made).
    static var appFactories: [String] { get }
    /// Whether instances are plain elements with pads of their own, rather than bins around children.
    static var isPlainElement: Bool { get }

    /// Makes the element's children and pads, on the thread making the element (its instance init).
    init(core: ElementCore, description: ElementTypeDescription)
    /// The element's source pad, ghost or its own; nil for sinks.
    var srcPad: UnsafeMutablePointer<GstPad>? { get }
    /// Lets GStreamer call in (appsrc and appsink callbacks, pad functions, probes): once the
    /// implementation exists.
    func installCallbacks()
    /// `SwiftElement.push`: hands `buffer` on downstream.
    func push(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime) -> FlowResult
    /// `SwiftElement.endOfStream`: ends the stream downstream.
    func endOfStream() -> FlowResult
    /// `SwiftElement.restrictSinkCaps`: limits what the sink pad accepts.
    func restrictSinkCaps(_ caps: Caps)
    /// A property was set (`spec` says which).
    func propertyChanged(_ spec: PropertySpec)
    /// PAUSED → READY, the pads deactivated (no data flows, a push waiting downstream has returned),
    /// before the implementation's `stop`.
    func padsDeactivated()
    /// PAUSED → READY, after the implementation's `stop`: what the run set up downstream is forgotten.
    func runEnded()
    /// End of stream sent to the element by the application (`gst_element_send_event`): nil to leave
    /// it to GstElement's handler, else the kind took `event` (its reference) and says whether it went out.
    func takeEndOfStream(_ event: UnsafeMutablePointer<GstEvent>) -> Bool?
}

extension ElementBody {
    func restrictSinkCaps(_ caps: Caps) {}
    func propertyChanged(_ spec: PropertySpec) {}
    func padsDeactivated() {}
    func runEnded() {}
    func takeEndOfStream(_ event: UnsafeMutablePointer<GstEvent>) -> Bool? { nil }
}

extension ElementTypeDescription {
    /// The kind's type, chosen from `kind` and `pulled`: the only choice among the kinds after registration.
    var bodyType: any ElementBody.Type {
        switch kind {
        case .source: pulled ? PadSource.self : AppSrcSource.self
        case .sink: AppSinkSink.self
        case .filter: PadFilter.self
        }
    }

    /// Whether the element is a plain element with pads of its own (filters and pulled sources)
    /// rather than a bin around an appsrc or appsink.
    var hasOwnPads: Bool { bodyType.isPlainElement }
}

/// Making the pads of a Swift element, and finding the kind's object from one.
enum ElementPads {
    // The kinds hold their own reference to each child and pad they use, released in their deinit:
    // the Swift handle, and with it the kind, may outlive the element (see ElementCore).

    /// A pad of the element's own, from its class's template `name`, with a reference for the caller.
    static func add(to element: UnsafeMutablePointer<GstElement>, name: String) -> UnsafeMutablePointer<GstPad> {
        let template = CGStreamerShim_element_get_pad_template(element, name)!
        let pad = gst_pad_new_from_template(template, name)!
        gst_element_add_pad(element, pad)
        return referenced(pad)
    }

    /// A ghost pad `name` of the element (a bin) for the pad of the same name of its child `target`,
    /// with a reference for the caller.
    static func addGhost(
        to element: UnsafeMutablePointer<GstElement>, name: String, target: UnsafeMutablePointer<GstElement>
    ) -> UnsafeMutablePointer<GstPad> {
        let targetPad = gst_element_get_static_pad(target, name)!
        defer { gst_object_unref(UnsafeMutableRawPointer(targetPad)) }
        let template = CGStreamerShim_element_get_pad_template(element, name)
        let ghost = gst_ghost_pad_new_from_template(name, targetPad, template)!
        gst_element_add_pad(element, ghost)
        return referenced(ghost)
    }

    /// A child of the element (a bin) made by `factory` and set up with `properties` (string forms, as
    /// gst-launch takes them), with a reference for the caller.
    static func addChild(
        to element: UnsafeMutablePointer<GstElement>, factory: String, properties: KeyValuePairs<String, String>
    ) -> UnsafeMutablePointer<GstElement> {
        let child = gst_element_factory_make(factory, factory)!
        for (property, value) in properties { CGStreamerShim_object_set_from_string(child, property, value) }
        gst_bin_add(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBin.self), child)
        return referenced(child)
    }

    private static func referenced<Object>(_ object: UnsafeMutablePointer<Object>) -> UnsafeMutablePointer<Object> {
        gst_object_ref(UnsafeMutableRawPointer(object))
        return object
    }

    /// Keeps `owner` in the pad's `element_private` field, without a reference: the element keeps the
    /// owner (through its Swift object) until it is finalized. The pad may live longer (a peer pushing
    /// or querying holds one, so may an application), so the field is read only through
    /// `owner(of:parent:as:)`, while the element is held.
    static func setOwner(_ owner: AnyObject, of pad: UnsafeMutablePointer<GstPad>) {
        pad.pointee.element_private = Unmanaged.passUnretained(owner).toOpaque()
    }

    /// The object `setOwner` kept in `pad`, for a pad function: `parent` is the pad's element, which
    /// GStreamer holds a reference to for the call, so the element is not finalized, nor the owner
    /// released, before the call returns. Nil when the pad has no element any more (removed from it, or
    /// the element disposed while the pad lives on): the owner may be gone, and the caller must answer
    /// as a flushing pad does. (Reading the field whatever the parent once touched a freed element.)
    static func owner<Owner: AnyObject>(
        of pad: UnsafeMutablePointer<GstPad>?, parent: UnsafeMutablePointer<GstObject>?, as type: Owner.Type
    ) -> Owner? {
        guard let pad, parent != nil, let owner = pad.pointee.element_private else { return nil }
        return Unmanaged<Owner>.fromOpaque(owner).takeUnretainedValue()
    }

    /// The object passed as a callback's `user_data`, without a reference (`passUnretained`).
    static func owner<Owner: AnyObject>(ofUserData userData: UnsafeMutableRawPointer?, as type: Owner.Type) -> Owner {
        Unmanaged<Owner>.fromOpaque(userData!).takeUnretainedValue()
    }
}
