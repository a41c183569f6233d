import CGStreamer
import Foundation
import GStreamer
import GstPipeWebRTC
import Testing

@testable import gstpipe

/// What a `whip+http://` output's publisher holds of the run once closed: nothing. It puts a probe
/// on the run's last element (a fakesink) and handlers on its own webrtcbin, each holding that
/// fakesink; left in place, the probe kept the fakesink alive through its own pad (one leaked per
/// run), and webrtcbin's handler kept webrtcbin. No frame flows here, so no offer goes out: nothing
/// touches the network.
@Suite("WHIPPublisherLifetimeTests")
struct WHIPPublisherLifetimeTests {
    /// The GObject reference count of the element (`element`'s own reference included).
    private static func references(_ element: Element) -> UInt32 {
        element.withUnsafePointer { pointer in
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self).pointee.ref_count
        }
    }

    @Test("Closed, the WHIP publisher lets go of the run's sink: its wrapper is freed, its references as before")
    func closeReleasesTheSink() throws {
        try GStreamer.initialize()
        let run = try Pipeline(launch: "videotestsrc ! vp8enc ! fakesink name=out")
        let client = try WHIPClient(uri: "whip+http://127.0.0.1:9/whip", role: .whip, environment: [:])
        let before = Self.references(try #require(run.element(named: "out")))
        let (publisher, watched) = try Self.publish(to: client, from: run)
        // The check sees what the publisher holds: its probe and handlers keep the sink's wrapper.
        #expect(watched.object != nil, "the publisher holds nothing of the sink")
        publisher.close()
        #expect(watched.object == nil, "the sink's wrapper outlived the closed publisher")
        #expect(Self.references(try #require(run.element(named: "out"))) == before)
        run.stop()
    }

    /// A publisher taking the frames of `run`'s fakesink, and a weak reference to the sink's wrapper it
    /// was given, which nothing else holds.
    private static func publish(to client: WHIPClient, from run: Pipeline) throws -> (WHIPPublisher, Weak) {
        let sink = try #require(run.element(named: "out"))
        let publisher = try WHIPPublisher(client: client, codec: .vp8, ice: ICESettings(), sink: sink, note: { _ in })
        return (publisher, Weak(sink))
    }
}

/// A weak reference to a wrapper.
private final class Weak: @unchecked Sendable {
    // Unchecked: set once in init and read by the test's one task.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
