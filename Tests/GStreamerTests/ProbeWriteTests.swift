import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite("Pad probes that write a buffer's bytes", .bounded)
struct ProbeWriteTests {
    static let raw = "videotestsrc num-buffers=3 pattern=black ! video/x-raw,format=GRAY8,width=32,height=24"
    static let mark: [UInt8] = [0xAB, 0xCD, 0xEF, 0x12]

    /// What the probe's writes threw.
    final class Errors: Sendable {
        let list = Locked<[String]>([])
        var all: [String] { list.withLock { $0 } }
    }

    /// Installs a probe on `pad` that writes `mark` over the first bytes of every buffer; returns the
    /// errors the writes threw.
    static func writeMark(on pad: Pad) -> Errors {
        let errors = Errors()
        pad.addProbe(.buffer) { info in
            do {
                try info.buffer?.withMutableBytes { bytes in
                    for (index, value) in mark.enumerated() { bytes[index] = value }
                }
            } catch {
                errors.list.withLock { $0.append("\(error)") }
            }
            return .ok
        }
        return errors
    }

    /// The first bytes of every buffer `sink` gets until the end of stream.
    static func heads(_ sink: AppSink) throws -> [[UInt8]] {
        var heads: [[UInt8]] = []
        while let sample = sink.pullSample() {
            heads.append(Array(try #require(sample.buffer).bytes.prefix(mark.count)))
        }
        return heads
    }

    @Test("A probe's withMutableBytes writes the buffer, and the appsink downstream reads the bytes written")
    func probeWritesBytes() throws {
        let pipeline = try Pipeline(launch: Self.raw + " ! identity name=id ! appsink name=sink sync=false")
        let pad = try #require(pipeline.element(named: "id")?.pad(named: "src"))
        let errors = Self.writeMark(on: pad)
        let sink = try pipeline.appSink(named: "sink")
        try pipeline.play()
        defer { pipeline.stop() }
        let heads = try Self.heads(sink)
        #expect(errors.all == [])
        #expect(heads == Array(repeating: Self.mark, count: 3))
    }

    @Test("Behind a tee the buffer is shared: the probe's branch sees its bytes, the other branch the originals")
    func probeWritesSharedBuffer() throws {
        let pipeline = try Pipeline(
            launch: Self.raw + " ! tee name=t t. ! queue name=q ! appsink name=a sync=false "
                + "t. ! queue ! appsink name=b sync=false")
        // The sink pad of the first branch's queue: tee still holds the buffer for the other branch.
        let pad = try #require(pipeline.element(named: "q")?.pad(named: "sink"))
        let errors = Self.writeMark(on: pad)
        let written = try pipeline.appSink(named: "a")
        let untouched = try pipeline.appSink(named: "b")
        try pipeline.play()
        defer { pipeline.stop() }
        let writtenHeads = try Self.heads(written)
        let untouchedHeads = try Self.heads(untouched)
        #expect(errors.all == [])
        #expect(writtenHeads == Array(repeating: Self.mark, count: 3))
        #expect(untouchedHeads.count == 3)
        #expect(untouchedHeads.allSatisfy { $0 != Self.mark && Set($0).count == 1 }, "\(untouchedHeads)")
    }

    @Test("withMutableBytes on a buffer a sample holds too writes this wrapper's copy, not the sample's")
    func sharedWrapperCopies() throws {
        let buffer = try Buffer(bytes: [1, 2, 3, 4])
        let sample = Sample(buffer: buffer, caps: nil)
        #expect(!buffer.isWritable)
        try buffer.withMutableBytes { $0[0] = 9 }
        #expect(buffer.bytes == [9, 2, 3, 4])
        #expect(try #require(sample.buffer).bytes == [1, 2, 3, 4])
    }

    @Test("A probe that restamps the buffer's copy() leaves the buffer going on with its own times")
    func probeRestampsCopy() throws {
        let pipeline = try Pipeline(launch: Self.raw + " ! identity name=id ! appsink name=sink sync=false")
        let pad = try #require(pipeline.element(named: "id")?.pad(named: "src"))
        let copies = Locked<[ClockTime?]>([])
        pad.addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .ok }
            let own = buffer.copy()
            own.pts = nil
            own.dts = nil
            #expect(!own.isSameBuffer(as: buffer))
            copies.withLock { $0.append(own.pts) }
            return .ok
        }
        let sink = try pipeline.appSink(named: "sink")
        try pipeline.play()
        defer { pipeline.stop() }
        var times: [ClockTime?] = []
        while let sample = sink.pullSample() { times.append(sample.buffer?.pts) }
        let frame = ClockTime(1_000_000_000 / 30)
        #expect(times == [0, frame, 2 * frame].map { ClockTime($0) })
        #expect(copies.withLock { $0 } == [nil, nil, nil])
    }
}
