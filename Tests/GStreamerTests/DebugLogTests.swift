import CGStreamer
import Foundation
import GStreamer
import GstPipeSupport
import Testing

@Suite("DebugLog: GStreamer's debug log through a Swift handler", .bounded)
struct DebugLogTests {
    @Test("A line GStreamer logs reaches the handler once, formatted as GStreamer's own writer does")
    func redirect() throws {
        let lines = Locked<[String]>([])
        try DebugLog.redirect { line in
            if line.contains("swiftdebuglogtest") { lines.withLock { $0.append(line) } }
        }
        // The process keeps a handler that writes where GStreamer's own writer did.
        defer { try? DebugLog.redirect { line in FileHandle.standardError.write(Data(line.utf8)) } }
        let category = _gst_debug_category_new("swiftdebuglogtest", 0, "DebugLog's test")
        gst_debug_category_set_threshold(category, GST_LEVEL_INFO)
        gst_debug_log_literal(category, GST_LEVEL_INFO, "DebugLogTests.swift", "redirect", 42, nil, "a line for Swift")
        // Above the category's threshold: not logged.
        gst_debug_log_literal(category, GST_LEVEL_DEBUG, "DebugLogTests.swift", "redirect", 43, nil, "too detailed")
        let got = lines.withLock { $0 }
        #expect(got.count == 1, "\(got)")
        let line = try #require(got.first)
        #expect(line.contains("INFO") && line.contains("DebugLogTests.swift:42:redirect"), "\(line)")
        #expect(line.hasSuffix("a line for Swift\n"), "\(line)")
    }
}
