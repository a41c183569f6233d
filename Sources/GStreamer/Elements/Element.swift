import CGStreamer
import CGStreamerShim

/// A GStreamer element. Owns one reference, released in `deinit`.
///
/// GstElement is reference counted and its methods are thread-safe, so the wrapper can cross threads.
public class Element: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstElement>

    /// Wraps `pointer`, taking over one reference (`owned: true`) or adding one (`owned: false`).
    /// Floating references are sunk.
    init(_ pointer: UnsafeMutablePointer<GstElement>, owned: Bool) {
        self.pointer = pointer
        if g_object_is_floating(UnsafeMutableRawPointer(pointer)) != 0 {
            gst_object_ref_sink(UnsafeMutableRawPointer(pointer))
        } else if !owned {
            gst_object_ref(UnsafeMutableRawPointer(pointer))
        }
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Creates an element from a factory, such as `Element(factory: "videotestsrc")`. Throws when the
    /// factory is not installed, naming it and the Debian package that usually provides it. (For a
    /// `Bin` wrapper where the element is a bin, use `ElementFactory.make`; for a pipeline, `Pipeline(name:)`.)
    ///
    /// The corresponding C function is `gst_element_factory_make`.
    ///
    /// - Parameters:
    ///   - factory: The factory's name, such as "videotestsrc".
    ///   - name: The element's name, unique in its bin; nil lets GStreamer number one ("videotestsrc0").
    /// - Throws: ``GStreamerError`` (invalid argument, naming the package to install) when there is no
    ///   such factory, or GStreamer cannot be initialized.
    public convenience init(factory: String, name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let element = gst_element_factory_make(factory, name) else { throw ElementFactory.missing(factory) }
        self.init(element, owned: true)
    }

    /// The element's name, such as "gray0".
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        String(takingGString: gst_object_get_name(objectPointer)) ?? ""
    }

    /// The name of the factory that made the element, such as "videotestsrc".
    public var factoryName: String? {
        guard let factory = gst_element_get_factory(pointer),
            let name = UnsafeMutablePointer<GstObject>(factory).pointee.name
        else { return nil }
        return String(cString: name)
    }

    var objectPointer: UnsafeMutablePointer<GstObject> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
    }

    /// For an element written in Swift (`ElementType.register`), its Swift half; nil for any other element.
    public var swiftElement: SwiftElement? {
        guard let object = CGStreamerShim_swift_element_swift_object(pointer) else { return nil }
        return Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
    }

    /// The element's static pad of this name.
    ///
    /// The corresponding C function is `gst_element_get_static_pad`.
    ///
    /// - Parameter name: The pad's name, such as "src" or "sink".
    /// - Returns: The pad, or nil when the element has no static pad of this name (request and sometimes
    ///   pads are not static).
    public func pad(named name: String) -> Pad? {
        guard let pad = gst_element_get_static_pad(pointer, name) else { return nil }
        return Pad(pad, owned: true)
    }

    /// Links this element's source pad to `other`'s sink pad.
    ///
    /// The corresponding C function is `gst_element_link`.
    ///
    /// - Parameter other: The downstream element, in the same bin.
    /// - Throws: ``GStreamerError`` (invalid argument) when the elements cannot be linked: no compatible
    ///   pads, different bins, or pads linked already.
    public func link(to other: Element) throws(GStreamerError) {
        guard gst_element_link(pointer, other.pointer) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument, message: "could not link \(name) to \(other.name)", source: name)
        }
    }
}
