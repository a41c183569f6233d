import CGStreamer
import CGStreamerShim

// An element's GObject properties by name, as PropertyValues (`Element+ObjectProperties.swift` has
// the properties that hold elements).

extension Element {
    /// Sets a property. Throws when the element has no such property or the value does not fit.
    ///
    /// The corresponding C function is `g_object_set_property`.
    ///
    /// - Parameters:
    ///   - property: The property's name, such as "num-buffers".
    ///   - value: The value: a Swift number, string or ``PropertyValue``, converted to the property's type.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is not writable (read-only,
    ///   or construct-only), or GLib refuses the value (wrong type, out of range, an enum number the enum
    ///   lacks), with GLib's reason.
    public func set(_ property: String, _ value: some PropertyValueConvertible) throws(GStreamerError) {
        guard let spec = CGStreamerShim_object_find_property(pointer, property) else {
            throw noSuchProperty(property)
        }
        try Element.checkAccess(spec, property, owner: name, flag: G_PARAM_WRITABLE)
        var gvalue = GValue()
        g_value_init(&gvalue, CGStreamerShim_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        guard GValues.write(value.propertyValue, into: &gvalue) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot set property \"\(property)\" of \(name) to \(value.propertyValue)", source: name)
        }
        // GLib refuses a value out of the property's range with a warning only, keeping the old value.
        let ((), warnings) = ParseWarnings.collect {
            g_object_set_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
        }
        if let warning = warnings.first { throw refused(property, value.propertyValue.description, warning) }
    }

    /// Sets a property from its string form, the way gst-launch-1.0 parses `name=value`. Throws when
    /// there is no such property, it is read-only, the string does not parse as its type, or GLib
    /// refuses the value (out of range), with GLib's reason.
    ///
    /// The corresponding C functions are `gst_value_deserialize_with_pspec` and `g_object_set_property`
    /// (what `gst_util_set_object_arg` does, which fails silently).
    ///
    /// - Parameters:
    ///   - property: The property's name.
    ///   - value: The value as gst-launch-1.0 writes it: `640`, `true`, `30/1`, an enum's nick.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is read-only, the
    ///   string does not parse, or GLib refuses the value.
    public func set(_ property: String, fromString value: String) throws(GStreamerError) {
        let (result, warnings) = ParseWarnings.collect {
            CGStreamerShim_object_set_from_string_checked(pointer, property, value)
        }
        switch result {
        case 1: throw noSuchProperty(property)
        case 2:
            throw GStreamerError(
                kind: .invalidArgument, message: "property \"\(property)\" of \(name) is not writable", source: name)
        case 3: throw refused(property, value, "\"\(value)\" is not a valid value of this property")
        default:
            if let warning = warnings.first { throw refused(property, value, warning) }
        }
    }

    private func refused(_ property: String, _ value: String, _ reason: String) -> GStreamerError {
        GStreamerError(
            kind: .invalidArgument, message: "cannot set property \"\(property)\" of \(name) to \(value): \(reason)",
            source: name)
    }

    /// Reads a property. Throws when the element has no such property.
    ///
    /// The corresponding C function is `g_object_get_property`.
    ///
    /// - Parameter property: The property's name.
    /// - Returns: The current value, typed after the property's GType.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property or it cannot be read.
    public func get(_ property: String) throws(GStreamerError) -> PropertyValue {
        guard let spec = CGStreamerShim_object_find_property(pointer, property) else {
            throw noSuchProperty(property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, CGStreamerShim_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        g_object_get_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
        guard let value = GValues.read(&gvalue) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "cannot read property \"\(property)\" of \(name)", source: name)
        }
        return value
    }

    private func noSuchProperty(_ property: String) -> GStreamerError {
        GStreamerError(
            kind: .invalidArgument, message: "no property \"\(property)\" in element \"\(name)\"", source: name)
    }
}
