import CGStreamer
import CGStreamerShim

/// One property of an element as gst-inspect-1.0 shows it.
public struct PropertyInfo: Sendable {
    /// The property's name, such as "num-buffers".
    public var name: String
    /// The property's one-sentence description.
    public var blurb: String
    /// GLib's name of the value type, such as "gint" or "GstCaps".
    public var typeName: String
    /// The allowed range, for numbers.
    public var range: String?
    /// The default value in GStreamer's string form.
    public var defaultValue: String
    /// Whether the property can be set (not read-only).
    public var writable: Bool
}

extension Element {
    /// The factory's long name, such as "Video test source".
    ///
    /// The corresponding C function is `gst_element_factory_get_metadata`.
    public var longName: String? { metadata("long-name") }

    /// The factory's description.
    ///
    /// The corresponding C function is `gst_element_factory_get_metadata`.
    public var elementDescription: String? { metadata("description") }

    /// The factory's classification, GStreamer's "klass": what the element is and works on, such
    /// as "Filter/Converter/Audio" or "Sink/Video".
    ///
    /// The corresponding C function is `gst_element_factory_get_metadata`.
    public var classification: String? { metadata("klass") }

    private func metadata(_ key: String) -> String? {
        guard let factory = gst_element_get_factory(pointer),
            let value = gst_element_factory_get_metadata(factory, key)
        else { return nil }
        return String(cString: value)
    }

    /// Every property of the element, in GObject's order.
    ///
    /// The corresponding C function is `g_object_class_list_properties`.
    ///
    /// - Returns: The properties, including those inherited (such as "name").
    public func properties() -> [PropertyInfo] {
        var count: guint = 0
        guard let specs = CGStreamerShim_object_list_properties(pointer, &count) else { return [] }
        defer { g_free(specs) }
        return (0..<Int(count)).compactMap { index in
            guard let spec = specs[index] else { return nil }
            let type = CGStreamerShim_param_spec_value_type(spec)
            let defaultValue: String = {
                guard let value = g_param_spec_get_default_value(spec) else { return "" }
                if let read = GValues.read(value) { return read.description }
                return ""
            }()
            return PropertyInfo(
                name: String(cString: g_param_spec_get_name(spec)),
                blurb: g_param_spec_get_blurb(spec).map { String(cString: $0) } ?? "",
                typeName: String(cString: g_type_name(type)), range: PropertyInfo.range(of: spec, type: type),
                defaultValue: defaultValue, writable: (spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue) != 0)
        }
    }
}

extension PropertyInfo {
    /// "minimum - maximum" of a numeric property, from the GParamSpec subtype of its value type; nil
    /// for other types.
    static func range(of spec: UnsafeMutablePointer<GParamSpec>, type: GType) -> String? {
        let numeric: (any NumericParamSpec.Type)? =
            switch type {
            case CGStreamerShim_type_int(): GParamSpecInt.self
            case CGStreamerShim_type_uint(): GParamSpecUInt.self
            case CGStreamerShim_type_int64(): GParamSpecInt64.self
            case CGStreamerShim_type_uint64(): GParamSpecUInt64.self
            case CGStreamerShim_type_double(): GParamSpecDouble.self
            default: nil
            }
        return numeric.map { range(of: spec, as: $0) }
    }

    private static func range<Spec: NumericParamSpec>(of spec: UnsafeMutablePointer<GParamSpec>, as _: Spec.Type)
        -> String
    {
        let typed = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: Spec.self).pointee
        return "\(typed.minimum) - \(typed.maximum)"
    }
}

/// GLib's GParamSpec subtypes for numbers, which all keep their bounds in `minimum` and `maximum`.
protocol NumericParamSpec {
    associatedtype Bound
    var minimum: Bound { get }
    var maximum: Bound { get }
}

extension GParamSpecInt: NumericParamSpec {}
extension GParamSpecUInt: NumericParamSpec {}
extension GParamSpecInt64: NumericParamSpec {}
extension GParamSpecUInt64: NumericParamSpec {}
extension GParamSpecDouble: NumericParamSpec {}
