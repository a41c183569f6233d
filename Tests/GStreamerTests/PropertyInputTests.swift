import CGStreamer
import Testing

@testable import GStreamer

/// Properties given wrong input Before the fix: `invalidRegistration` crashed inside
/// GLib (the param spec came back NULL); `notWritable` saw playbin's read-only `source` and the bus's
/// construct-only `enable-async` accepted with a GLib warning; `enumOutOfRange` trapped converting
/// 1 << 40 to gint, and a number the enum lacks was accepted with a warning through `setValue`.
@Suite("Property input that must throw, not crash", .bounded)
struct PropertyInputTests {
    static func register(_ name: String, _ properties: [PropertySpec]) throws(GStreamerError) {
        let description = ElementTypeDescription(
            name: name, longName: "Test", classification: "Filter/Video", description: "A test",
            kind: .filter, properties: properties)
        try ElementType.register(description) { _ in fatalError("never made: the registration is refused") }
    }

    @Test(
        "A Swift element whose property GLib would refuse is not registered; the error names both",
        arguments: [
            (PropertySpec("1st", blurb: "x", .bool(default: true)), "is not a valid property name"),
            (PropertySpec("has space", blurb: "x", .int(range: 0...1, default: 0)), "is not a valid property name"),
            (PropertySpec("name", blurb: "x", .string(default: nil)), "every bin has already"),
            (PropertySpec("level", blurb: "x", .int(range: 0...10, default: 11)), "outside its range"),
            (PropertySpec("gain", blurb: "x", .double(range: 0...1, default: .nan)), "outside its range"),
            (PropertySpec("rate", blurb: "x", .fraction(default: (30, 0))), "the denominator 1...")
        ])
    func invalidRegistration(spec: PropertySpec, reason: String) throws {
        try GStreamer.initialize()
        let name = "badprops\(abs(spec.name.hashValue) % 100_000)"
        do {
            try Self.register(name, [spec])
            Issue.record("registered \(spec.name)")
        } catch {
            #expect(error.message.contains("the Swift element \"\(name)\" cannot be registered"), "\(error)")
            #expect(error.message.contains("property \"\(spec.name)\" "), "\(error)")
            #expect(error.message.contains(reason), "\(error)")
        }
        #expect(!GStreamer.hasElement(named: name))
    }

    @Test("Two properties of one name are refused")
    func duplicateNames() throws {
        try GStreamer.initialize()
        let twice = PropertySpec("strength", blurb: "x", .int(range: 0...9, default: 1))
        #expect(throws: GStreamerError.self) { try Self.register("dupprops", [twice, twice]) }
        #expect(!GStreamer.hasElement(named: "dupprops"))
    }

    @Test("Setting a read-only or construct-only property throws, naming it; the value is unchanged")
    func notWritable() throws {
        try GStreamer.initialize()
        let playbin = try ElementFactory.make("playbin")
        let sink = try ElementFactory.make("fakesink")
        do {
            try playbin.set("source", element: sink)
            Issue.record("a read-only property was set")
        } catch {
            #expect(error.message == "property \"source\" of \(playbin.name) is not writable")
        }
        #expect(try playbin.element(forProperty: "source") == nil)
        #expect(throws: GStreamerError.self) { try playbin.set("source", 1) }
        let bus = gst_bus_new()!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let object = Object(borrowing: UnsafeMutableRawPointer(bus))
        do {
            try object.setValue(Value(false), ofProperty: "enable-async")
            Issue.record("a construct-only property was set")
        } catch {
            #expect(
                error.message.contains("property \"enable-async\" of \(object.name) can only be set when the object"))
        }
    }

    @Test("An enum property given a number it lacks, or one beyond gint, throws and keeps its value")
    func enumOutOfRange() throws {
        let source = try ElementFactory.make("videotestsrc")
        try source.set("pattern", fromString: "snow")
        #expect(throws: GStreamerError.self) { try source.set("pattern", 1 << 40) }
        #expect(throws: GStreamerError.self) { try source.set("pattern", 9999) }
        #expect(throws: GStreamerError.self) { try source.setValue(Value(9999), ofProperty: "pattern") }
        #expect(throws: GStreamerError.self) { try source.setValue(Value(1 << 40), ofProperty: "pattern") }
        #expect(try source.get("pattern") == .enumeration(1, nick: "snow"))
        try source.setValue(Value(18), ofProperty: "pattern")
        #expect(try source.get("pattern").intValue == 18)
    }
}
