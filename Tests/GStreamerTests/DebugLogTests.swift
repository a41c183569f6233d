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

@Suite("DebugLog's handlers coming and going while other threads log", .bounded)
struct DebugLogHandlerChurnTests {
    @Test(
        "500 handlers added and removed while three threads log: lines while installed, none after, no newer one removed"
    )
    func handlersComeAndGo() throws {
        // The threads' lines go nowhere but to the handlers here (thousands of them); the process then keeps a
        // handler that writes where GStreamer's own writer did, as DebugLogTests leaves it.
        try DebugLog.redirect { _ in }
        defer { try? DebugLog.redirect { line in FileHandle.standardError.write(Data(line.utf8)) } }
        let category = _gst_debug_category_new("swiftdebugchurn", 0, "DebugLog's handlers coming and going")
        gst_debug_category_set_threshold(category, GST_LEVEL_INFO)
        // GStreamer keeps a category for the life of the process: its address is all a thread needs.
        let address = UInt(bitPattern: category)
        let stop = Locked(false)
        let stopped = DispatchGroup()
        for _ in 0..<3 {
            stopped.enter()
            Thread.detachNewThread {
                let category = UnsafeMutablePointer<GstDebugCategory>(bitPattern: address)
                while !stop.withLock({ $0 }) {
                    gst_debug_log_literal(category, GST_LEVEL_INFO, "DebugLogTests.swift", "churn", 1, nil, "logging")
                }
                stopped.leave()
            }
        }
        defer {
            stop.withLock { $0 = true }
            stopped.wait()
        }
        var starved = 0
        var late = 0
        for round in 0..<500 {
            let lines = Locked<[String]>([])
            let handler = try DebugLog.addHandler(removingDefaultWriter: round.isMultiple(of: 2)) { message in
                if message.category == "swiftdebugchurn" { lines.withLock { $0.append(message.text) } }
            }
            let deadline = Date().addingTimeInterval(2)
            while lines.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.0005) }
            if lines.withLock({ $0.isEmpty }) { starved += 1 }
            handler.remove()
            // Logged after the removal returned, on this thread: it reaches no removed handler.
            gst_debug_log_literal(category, GST_LEVEL_INFO, "DebugLogTests.swift", "churn", 2, nil, "after removal")
            if lines.withLock({ $0.contains("after removal") }) { late += 1 }
        }
        #expect(starved == 0, "handlers that got no line in 2 s while installed")
        #expect(late == 0, "removed handlers that still got a line logged after their removal")

        // A handle removed twice, after its box went to a newer handler, leaves the newer one installed.
        let first = try DebugLog.addHandler { _ in }
        first.remove()
        let newer = Locked(0)
        let second = try DebugLog.addHandler { message in
            if message.text == "to the newer" { newer.withLock { $0 += 1 } }
        }
        first.remove()
        gst_debug_log_literal(category, GST_LEVEL_INFO, "DebugLogTests.swift", "churn", 3, nil, "to the newer")
        second.remove()
        #expect(newer.withLock { $0 } == 1)
    }
}
