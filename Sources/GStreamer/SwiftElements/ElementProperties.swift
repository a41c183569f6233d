import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// One GObject property of an element written in Swift: declared once, shown by `inspect`, set from
/// a launch description (`noise width=640`).
public struct PropertySpec: Sendable {
    /// The property's type, range and default.
    public enum Kind: Sendable {
        /// An integer in `range` (a `gint`, or a `gint64` when the range does not fit 32 bits).
        case int(range: ClosedRange<Int>, default: Int)
        /// A `gdouble` in `range`.
        case double(range: ClosedRange<Double>, default: Double)
        /// A `gboolean`.
        case bool(default: Bool)
        /// A string; a nil default reads as nil until one is set.
        case string(default: String?)
        /// A fraction such as a frame rate; range 0/1 to G_MAXINT/1.
        case fraction(default: (numerator: Int, denominator: Int))
    }

    /// The property's name in launch descriptions and `g_object_set` (`num-buffers`).
    public var name: String
    /// A short human-readable name; the name unless given.
    public var nick: String
    /// One sentence on what the property does, shown by `gst-inspect-1.0` and `gstpipe inspect`.
    public var blurb: String
    /// The property's type, range and default.
    public var kind: Kind

    ///
    /// - Parameters:
    ///   - name: The property's name: lowercase letters, digits and dashes, starting with a letter.
    ///   - nick: A short human-readable name, or nil for `name`.
    ///   - blurb: One sentence on what the property does.
    ///   - kind: The type, range and default.
    public init(_ name: String, nick: String? = nil, blurb: String, _ kind: Kind) {
        self.name = name
        self.nick = nick ?? name
        self.blurb = blurb
        self.kind = kind
    }

    /// The value an element instance starts with.
    public var defaultValue: PropertyValue {
        switch kind {
        case .int(_, let value): .int(value)
        case .double(_, let value): .double(value)
        case .bool(let value): .bool(value)
        case .string(let value): .string(value)
        case .fraction(let value): .fraction(value.numerator, value.denominator)
        }
    }

    /// Throws when GLib would refuse the spec (it returns NULL and logs a critical): a name that is not a
    /// valid property name or that every bin has already, a default outside the range, a fraction that
    /// does not fit a gint.
    func validate() throws(GStreamerError) {
        guard g_param_spec_is_valid_name(name) != 0 else {
            throw invalid("is not a valid property name: start with a letter, then use letters, digits, '-' or '_'")
        }
        let binClass = g_type_class_ref(gst_bin_get_type())
        defer { g_type_class_unref(binClass) }
        if g_object_class_find_property(binClass?.assumingMemoryBound(to: GObjectClass.self), name) != nil {
            throw invalid("is a property every bin has already: choose another name")
        }
        switch kind {
        case .int(let range, let value) where !range.contains(value):
            throw invalid("has the default \(value), outside its range \(range)")
        case .double(let range, let value) where !range.contains(value):
            throw invalid("has the default \(value), outside its range \(range)")
        case .fraction(let value)
        where !(0...Int(Int32.max)).contains(value.numerator) || !(1...Int(Int32.max)).contains(value.denominator):
            throw invalid(
                "has the default \(value.numerator)/\(value.denominator): the numerator must be 0...\(Int32.max) and "
                    + "the denominator 1...\(Int32.max)")
        default: break
        }
    }

    private func invalid(_ reason: String) -> GStreamerError {
        GStreamerError(kind: .invalidArgument, message: "property \"\(name)\" \(reason)")
    }

    /// A floating GParamSpec for the class to install; `validate` first, or GLib may return NULL.
    func makeParamSpec() -> UnsafeMutablePointer<GParamSpec> {
        let flags = GParamFlags(
            rawValue: G_PARAM_READWRITE.rawValue | G_PARAM_STATIC_NAME.rawValue | G_PARAM_STATIC_NICK.rawValue
                | G_PARAM_STATIC_BLURB.rawValue)
        // G_PARAM_STATIC_STRINGS needs strings that live for the rest of the process: GLib's interned
        // copies do, and one string is kept once however many types use it.
        let name = g_intern_string(self.name)
        let nick = g_intern_string(self.nick)
        let blurb = g_intern_string(self.blurb)
        switch kind {
        case .int(let range, let value):
            if range.lowerBound >= Int(Int32.min) && range.upperBound <= Int(Int32.max) {
                return g_param_spec_int(
                    name, nick, blurb, gint(range.lowerBound), gint(range.upperBound), gint(value), flags)
            }
            return g_param_spec_int64(
                name, nick, blurb, gint64(range.lowerBound), gint64(range.upperBound), gint64(value), flags)
        case .double(let range, let value):
            return g_param_spec_double(name, nick, blurb, range.lowerBound, range.upperBound, value, flags)
        case .bool(let value):
            return g_param_spec_boolean(name, nick, blurb, value ? 1 : 0, flags)
        case .string(let value):
            return g_param_spec_string(name, nick, blurb, value, flags)
        case .fraction(let value):
            return gst_param_spec_fraction(
                name, nick, blurb, 0, 1, gint(Int32.max), 1, gint(value.numerator), gint(value.denominator), flags)
        }
    }
}

/// The current property values of one element instance. Set from any thread (gst-launch, the
/// application), read by the element on its streaming thread.
public final class ElementProperties: Sendable {
    /// The properties the element type declares, in order.
    public let specs: [PropertySpec]
    private let values: Locked<[PropertyValue]>
    private let changes = Atomic<Int>(0)

    /// How many times a property was set so far. An element that reads its properties once, rather
    /// than for every buffer, reads them again when this moves on: one atomic load a buffer instead of
    /// a lock and a name lookup for each property.
    public var changeCount: Int { changes.load(ordering: .acquiring) }

    init(specs: [PropertySpec]) {
        self.specs = specs
        self.values = Locked(specs.map(\.defaultValue))
    }

    /// The value of the property named `name`, or nil when there is none.
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value, or nil when the element has no such property.
    public subscript(name: String) -> PropertyValue? {
        guard let index = specs.firstIndex(where: { $0.name == name }) else { return nil }
        return values.withLock { $0[index] }
    }

    /// An integer property's value (0 when absent).
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value; 0 when there is no such property or it is not an integer.
    public func int(_ name: String) -> Int { self[name]?.intValue ?? 0 }
    /// A Double property's value (0 when absent).
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value; 0 when there is no such property or it is not a number.
    public func double(_ name: String) -> Double { self[name]?.doubleValue ?? 0 }
    /// A Bool property's value (false when absent).
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value; false when there is no such property or it is not a boolean.
    public func bool(_ name: String) -> Bool { self[name]?.boolValue ?? false }
    /// A string property's value.
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value; nil when it is unset, there is no such property, or it is not a string.
    public func string(_ name: String) -> String? { self[name]?.stringValue }
    /// A fraction property's value.
    ///
    /// - Parameter name: The property's name.
    /// - Returns: The current value; nil when there is no such property or it is not a fraction.
    public func fraction(_ name: String) -> (numerator: Int, denominator: Int)? {
        if case .fraction(let numerator, let denominator)? = self[name] { return (numerator, denominator) }
        return nil
    }

    func set(id: Int, _ value: PropertyValue) {
        guard id >= 1 && id <= specs.count else { return }
        values.withLock { $0[id - 1] = value }
        changes.add(1, ordering: .releasing)
    }

    func get(id: Int) -> PropertyValue? {
        guard id >= 1 && id <= specs.count else { return nil }
        return values.withLock { $0[id - 1] }
    }
}
