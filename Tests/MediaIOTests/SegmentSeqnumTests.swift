import GStreamer
import GstPipeSupport
import MediaIO
import Testing

/// Sequence numbers across a Swift filter. A filter sends its own segment event
/// downstream; before the fix that event got a new sequence number, so after a seek the segment leaving
/// the filter no longer carried the seek's number (elements downstream match seeks by it), and
/// `seekKeepsSeqnum` failed (leaving 40, the seek 31; already before the seek the two segments differed).
@Suite("A Swift filter keeps the sequence number of the segments it passes on", .bounded)
struct SegmentSeqnumTests {
    /// The sequence numbers of the segment events passing `pad`, in order.
    final class Segments: Sendable {
        let seqnums = Locked<[UInt32]>([])

        init(watching pad: Pad) {
            pad.addProbe(.eventDownstream) { [self] info in
                if let event = info.event, event.typeName == "segment" { seqnums.withLock { $0.append(event.seqnum) } }
                return .ok
            }
        }

        var last: UInt32? { seqnums.withLock { $0.last } }
    }

    @Test("After a flushing seek, the segment entering and the one leaving a Swift filter carry the seek's number")
    func seekKeepsSeqnum() throws {
        TestElements.register()
        let pipeline = try Pipeline(launch: "videotestsrc ! passthrough name=f ! fakesink name=sink sync=false")
        defer { pipeline.stop() }
        let entering = Segments(watching: try #require(pipeline.element(named: "f")?.pad(named: "sink")))
        let leaving = Segments(watching: try #require(pipeline.element(named: "sink")?.pad(named: "sink")))
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        #expect(entering.last != nil && entering.last == leaving.last)
        let seek = try Event.seek(flags: [.flush, .accurate], start: 1_000_000_000)
        #expect(pipeline.send(seek))
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        #expect(entering.last == seek.seqnum, "videotestsrc's segment answers the seek")
        #expect(leaving.last == seek.seqnum, "the filter's segment keeps it")
    }
}
