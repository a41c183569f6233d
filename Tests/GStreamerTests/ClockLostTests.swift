import CGStreamer
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// `clock-lost` names the clock that went away: the typed case keeps its shape, and the
/// posted message gives the clock. No element here provides a clock headless (audio sinks need a sound
/// server), so the message an audio sink posts as it goes to READY is made with GStreamer's own
/// constructor and put on the pipeline's bus.
@Suite("The lost clock of a clock-lost message", .bounded)
struct ClockLostTests {
    @Test("A clock-lost message posted by an element reaches the sync handler with the lost clock")
    func lostClockFromPostedMessage() throws {
        let pipeline = try Pipeline(launch: "fakesrc name=provider ! fakesink")
        let provider = try #require(pipeline.element(named: "provider"))
        let object = try #require(g_object_new_with_properties(gst_system_clock_get_type(), 0, nil, nil))
        // A new GstObject is floating: sink it, so this test owns the one reference it drops below.
        let raw = UnsafeMutableRawPointer(object)
        _ = gst_object_ref_sink(raw)
        let lost = raw.assumingMemoryBound(to: GstClock.self)
        _ = gst_object_set_name(UnsafeMutableRawPointer(lost).assumingMemoryBound(to: GstObject.self), "gone")
        let lostClock = Clock(borrowing: lost)
        gst_object_unref(UnsafeMutableRawPointer(lost))
        let seen = Locked<[(source: String?, clock: Clock?)]>([])
        let otherKindsClock = Locked<[String]>([])
        pipeline.setSyncHandler { posted in
            if case .clockLost(let source) = posted.message {
                seen.withLock { $0.append((source, posted.clock)) }
            } else if let clock = posted.clock, posted.typeName != "new-clock", posted.typeName != "clock-provide" {
                otherKindsClock.withLock { $0.append("\(posted.typeName): \(clock.name)") }
            }
            return .pass
        }
        // Straight onto the pipeline's bus: a bin forwards a child's clock-lost only while PLAYING with that
        // clock as the one it provides, which takes a clock-providing element.
        let message = provider.withUnsafePointer { element in
            gst_message_new_clock_lost(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self), lost)
        }
        let bus = try #require(pipeline.withUnsafePointer { gst_element_get_bus($0) })
        #expect(gst_bus_post(bus, message) != 0)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        let messages = seen.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.source == "provider")
        let clock = try #require(messages.first?.clock, "the clock-lost message gave no clock")
        #expect(clock.name == "gone")
        #expect(clock.isSame(as: lostClock))
        pipeline.setSyncHandler(nil)
        #expect(otherKindsClock.withLock { $0 }.isEmpty)
    }

    @Test("A run's new-clock message gives the clock the pipeline selected; other kinds give none")
    func newClockFromPostedMessage() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc num-buffers=3 ! fakesink sync=true")
        let selected = Locked<Clock?>(nil)
        let stateChangeClocks = Locked<Int>(0)
        pipeline.setSyncHandler { posted in
            if posted.typeName == "new-clock" { selected.withLock { $0 = posted.clock } }
            if posted.typeName == "state-changed", posted.clock != nil { stateChangeClocks.withLock { $0 += 1 } }
            return .pass
        }
        try await pipeline.run()
        let clock = try #require(selected.withLock { $0 }, "no new-clock with a clock")
        #expect(!clock.name.isEmpty)
        #expect(stateChangeClocks.withLock { $0 } == 0)
        pipeline.setSyncHandler(nil)
    }
}
