import CGStreamer
import CGStreamerShim

// Properties whose value is an element, such as playbin's `video-sink` and `audio-sink`.

extension Element {
    /// Sets a property that holds an element (playbin's `video-sink`), or clears it.
    ///
    /// The corresponding C functions are `g_value_set_object` and `g_object_set_property`.
    ///
    /// - Parameters:
    ///   - property: The property's name.
    ///   - value: The element to hold; nil clears the property.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is not writable
    ///   (read-only, or construct-only), or it does not hold an element of that type.
    public func set(_ property: String, element value: Element?) throws(GStreamerError) {
        guard let spec = CGStreamerShim_object_find_property(pointer, property) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "no property \"\(property)\" in element \"\(name)\"", source: name)
        }
        try Element.checkAccess(spec, property, owner: name, flag: G_PARAM_WRITABLE)
        let type = CGStreamerShim_param_spec_value_type(spec)
        guard g_type_is_a(type, CGStreamerShim_type_object()) != 0,
            value.map({ g_type_is_a(CGStreamerShim_object_type($0.pointer), type) != 0 }) ?? true
        else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot set property \"\(property)\" of \(name) to \(value?.name ?? "NULL")", source: name)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, type)
        defer { g_value_unset(&gvalue) }
        g_value_set_object(&gvalue, value.map { UnsafeMutableRawPointer($0.pointer) })
        g_object_set_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
    }

    /// The element a property holds (playbin's `video-sink`, `source`).
    ///
    /// The corresponding C functions are `g_object_get_property` and `g_value_get_object`.
    ///
    /// - Parameter property: The property's name.
    /// - Returns: The element; nil when the property holds none.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property or it does not hold
    ///   an element.
    public func element(forProperty property: String) throws(GStreamerError) -> Element? {
        guard let spec = CGStreamerShim_object_find_property(pointer, property),
            g_type_is_a(CGStreamerShim_param_spec_value_type(spec), gst_element_get_type()) != 0
        else {
            throw GStreamerError(
                kind: .invalidArgument, message: "no element property \"\(property)\" in element \"\(name)\"",
                source: name)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, CGStreamerShim_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        g_object_get_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
        guard let object = g_value_get_object(&gvalue) else { return nil }
        return Element.wrap(object.assumingMemoryBound(to: GstElement.self), owned: false)
    }
}
