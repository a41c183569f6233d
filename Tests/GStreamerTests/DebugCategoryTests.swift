import GStreamer
import GStreamerLogging
import GstPipeSupport
import Logging
import Testing

/// A swift-log handler that keeps every record, for the bridge's test.
struct RecordingLogHandler: LogHandler {
    /// One record as swift-log handed it over.
    struct Record: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var source: String
        var category: String?
        var object: String?
        var file: String
        var function: String
        var line: UInt
    }

    /// Where the records go: a class, so the handler (a value swift-log copies) shares one list.
    final class Records: Sendable {
        let list = Locked<[Record]>([])
    }

    let records: Records
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let category = event.metadata?["gst.category"].map { "\($0)" }
        let object = event.metadata?["gst.object"].map { "\($0)" }
        records.list.withLock {
            $0.append(
                Record(
                    level: event.level, message: "\(event.message)", source: event.source, category: category,
                    object: object, file: event.file, function: event.function, line: event.line))
        }
    }
}

@Suite("Debug categories of the application's own, log handlers, and the opt-in swift-log bridge", .bounded)
struct DebugCategoryTests {
    @Test("A category's lines reach a handler with level, category, object, file, function and line; none past removal")
    func categoryToHandler() throws {
        let category = try DebugCategory(name: "gstpipe-test-handler", color: [.cyan], description: "a test's lines")
        #expect(category.name == "gstpipe-test-handler")
        #expect(category.description == "a test's lines")
        try DebugLog.setThresholds("gstpipe-test-handler:4")
        #expect(category.threshold == .info)
        let seen = Locked<[DebugMessage]>([])
        let handler = try DebugLog.addHandler { message in
            if message.category == "gstpipe-test-handler" { seen.withLock { $0.append(message) } }
        }
        let element = try ElementFactory.make("fakesink", name: "watched")
        category.warning("a warning", object: element)
        let warningLine = #line - 1
        category.info("some information")
        category.debug("above the threshold")
        let built = Locked(false)
        category.log(
            .trace,
            {
                built.withLock { $0 = true }
                return "never built"
            }())
        handler.remove()
        category.error("after removal")
        handler.remove()

        let got = seen.withLock { $0 }
        #expect(got.map(\.text) == ["a warning", "some information"])
        let warning = try #require(got.first)
        #expect(warning.level == .warning)
        #expect(warning.objectName == "watched")
        #expect(warning.file.hasSuffix("DebugCategoryTests.swift"))
        #expect(warning.function == "categoryToHandler()")
        #expect(warning.line == warningLine)
        #expect(got.last?.objectName == nil)
        #expect(!built.withLock { $0 }, "a line above the threshold was built")
        category.threshold = .trace
        #expect(category.threshold == .trace)
        #expect(throws: GStreamerError.self) { try DebugCategory(name: "bad name", description: "") }
        #expect(throws: GStreamerError.self) { try DebugCategory(name: "", description: "") }
    }

    @Test("GStreamer's own categories reach a handler: GST_STATES logs a pipeline's state changes at info")
    func gstreamerCategories() throws {
        try DebugLog.setThresholds("GST_STATES:4")
        // Back to none, or GStreamer's own writer prints every state change of every later test.
        defer { try? DebugLog.setThresholds("GST_STATES:0") }
        let seen = Locked<[DebugMessage]>([])
        let handler = try DebugLog.addHandler { message in
            if message.category == "GST_STATES" && message.objectName == "statelogged" {
                seen.withLock { $0.append(message) }
            }
        }
        defer { handler.remove() }
        let pipeline = try Pipeline(launch: "fakesrc num-buffers=1 ! fakesink")
        try pipeline.set("name", "statelogged")
        try pipeline.setState(.ready)
        pipeline.stop()
        let got = seen.withLock { $0 }
        #expect(got.contains { $0.level == .info && $0.text.contains("READY") }, "\(got.map(\.text))")
    }

    @Test("The swift-log bridge: records with mapped level, source, metadata and place; removed, no more records")
    func swiftLogBridge() throws {
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "gstreamer") { _ in RecordingLogHandler(records: records) }
        let category = try DebugCategory(name: "gstpipe-test-bridge", description: "the bridge test's lines")
        category.threshold = .log
        let bridge = try GStreamerLogBridge.install(logger: logger, removingDefaultWriter: true)
        let element = try ElementFactory.make("identity", name: "bridged")
        category.error("an error", object: element)
        let errorLine = #line - 1
        category.log(.fixme, "a fixme")
        category.log(.log, "a detailed line")
        bridge.remove()
        category.error("not bridged")
        bridge.remove()

        let ours = records.list.withLock { $0 }.filter { $0.source == "gstpipe-test-bridge" }
        #expect(ours.map(\.message) == ["an error", "a fixme", "a detailed line"])
        #expect(ours.map(\.level) == [.error, .notice, .trace])
        let first = try #require(ours.first)
        #expect(first.category == "gstpipe-test-bridge")
        #expect(first.object == "bridged")
        #expect(first.file.hasSuffix("DebugCategoryTests.swift"))
        #expect(first.function == "swiftLogBridge()")
        #expect(first.line == UInt(errorLine))
        #expect(GStreamerLogBridge.level(for: .debug) == .debug)
        #expect(GStreamerLogBridge.level(for: .warning) == .warning)
    }
}
