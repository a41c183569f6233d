import Testing

@testable import GStreamer

/// Values that read back wrong or failed unclearly: a guint64 property above Int.max (it read back negative), and
/// two Swift element names that make one GType name (GLib's "registered already" named neither).
@Suite("An unsigned property above Int.max; element names that make one type name", .bounded)
struct PropertyRangeAndTypeNameTests {
    @Test("queue's max-size-time (a guint64) reads back G_MAXUINT64 and Int.max + 5 as .uint, smaller as .int")
    func unsignedAboveIntMax() throws {
        try GStreamer.initialize()
        let queue = try ElementFactory.make("queue")
        try queue.set("max-size-time", fromString: "18446744073709551615")
        #expect(try queue.get("max-size-time") == .uint(UInt.max))
        #expect(try queue.get("max-size-time").intValue == nil)
        #expect(try queue.get("max-size-time").description == "18446744073709551615")
        let beyond = UInt(Int.max) + 5
        try queue.set("max-size-time", beyond)
        #expect(try queue.get("max-size-time").uintValue == beyond)
        try queue.set("max-size-time", 5_000_000)
        #expect(try queue.get("max-size-time") == .int(5_000_000))
        // A value the property cannot hold is refused, not wrapped: max-size-buffers is a guint.
        #expect(throws: GStreamerError.self) { try queue.set("max-size-buffers", UInt(UInt32.max) + 1) }
        #expect(try queue.get("max-size-buffers") == .int(200))
    }

    @Test("my-gray then my_gray: the second is refused naming both and the type name they share")
    func namesSharingATypeName() throws {
        try GStreamer.initialize()
        func register(_ name: String) throws(GStreamerError) {
            try ElementType.register(
                ElementTypeDescription(
                    name: name, longName: "Test", classification: "Filter/Video", description: "A test", kind: .filter)
            ) { _ in fatalError("not made here") }
        }
        try register("typename-gray")
        do {
            try register("typename_gray")
            Issue.record("typename_gray was registered beside typename-gray")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(
                error.message
                    == "the Swift element \"typename_gray\" cannot be registered: \"typename-gray\" is, and both make "
                    + "the type name GstTypenameGray (GObject keeps only letters and digits of a name): give one a "
                    + "name that differs in a letter or digit")
        }
        #expect(GStreamer.hasElement(named: "typename-gray") && !GStreamer.hasElement(named: "typename_gray"))
        // The same name again is still a no-op.
        try register("typename-gray")
    }
}
