import CGStreamer
import GStreamer
import GstPipeSupport
import Testing

@Suite("The application's own GLib log handler stays in place", .bounded)
struct LogHandlerTests {
    /// The GLib-GObject warnings the application's handler got.
    static let seen = Locked<[String]>([])

    /// Makes GLib-GObject warn on this thread, outside any parse: a property that does not exist.
    static func warnUnknownProperty(_ name: String) {
        let element = gst_element_factory_make("fakesink", nil)!
        defer { gst_object_unref(element) }
        var value = GValue()
        g_value_init(&value, GType(6 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_INT
        defer { g_value_unset(&value) }
        g_value_set_int(&value, 1)
        g_object_set_property(UnsafeMutablePointer(OpaquePointer(element)), name, &value)
    }

    @Test("After a parse that collected a warning, a GLib-GObject warning reaches the application's handler")
    func applicationHandlerKept() async throws {
        try GStreamer.initialize()
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue)
        let id = g_log_set_handler(
            "GLib-GObject", levels,
            { _, _, message, _ in
                if let message { LogHandlerTests.seen.withLock { $0.append(String(cString: message)) } }
            }, nil)
        defer { g_log_remove_handler("GLib-GObject", id) }
        // The core collects GLib's warnings while it parses: this one becomes the parse's error.
        #expect(throws: GStreamerError.self) { try Pipeline(launch: "fakesrc num-buffers=-5 ! fakesink") }
        let name = "no-such-property-of-the-application"
        // Another suite parsing at this very moment shadows the handler for the length of its parse (GLib
        // calls a domain's newest handler alone): try again until none does. Under load, with the library's
        // suites side by side, three tries in a row all met a parse.
        let deadline = ContinuousClock.now + .seconds(20)
        while !Self.seen.withLock({ $0.contains { $0.contains(name) } }) && ContinuousClock.now < deadline {
            Self.warnUnknownProperty(name)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.seen.withLock { $0.contains { $0.contains(name) } }, "\(Self.seen.withLock { $0 })")
        #expect(!Self.seen.withLock { $0.contains { $0.contains("num-buffers") } }, "the parse's warning was collected")
    }
}
