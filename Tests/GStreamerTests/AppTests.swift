import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite("AppSrc and AppSink: an application's own data in and out of a pipeline", .bounded)
struct AppTests {
    /// 8 kHz mono S16LE: 80 samples (160 bytes) are 10 ms.
    static var audio: AudioInfo { get throws { try AudioInfo(format: .s16, rate: 8000, channels: 1) } }
    static let tenMilliseconds: ClockTime = 10_000_000

    /// Buffer `index` of a ramp: sample `n` of it is `index * 100 + n`.
    static func ramp(_ index: Int) -> [UInt8] {
        (0..<80).flatMap { n -> [UInt8] in
            let value = Int16(index * 100 + n)
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
    }

    /// The pipeline of `description`, its appsrc "src" (given the audio caps) and its appsink "sink".
    static func appPipeline(_ description: String) throws -> (Pipeline, AppSrc, AppSink) {
        let pipeline = try Pipeline(launch: description)
        let source = try pipeline.appSrc(named: "src")
        source.caps = try audio.caps
        return (pipeline, source, try pipeline.appSink(named: "sink"))
    }

    /// Pushes ramp buffer `index`, 10 ms long, stamped at `index` times 10 ms.
    @discardableResult
    static func pushRamp(_ index: Int, into source: AppSrc) throws -> FlowResult {
        try source.push(bytes: ramp(index), pts: ClockTime(index) * tenMilliseconds, duration: tenMilliseconds)
    }

    @Test(
        "Made in code: 10 audio buffers pushed come out of the appsink with their timestamps, bytes and caps, then end of stream"
    )
    func pushAndPull() throws {
        let pipeline = try Pipeline(name: "app")
        let source = try AppSrc(name: "src")
        let sink = try AppSink(name: "sink")
        source.caps = try Self.audio.caps
        sink.sync = false
        #expect(source.format == .time)
        try pipeline.add(source, sink)
        try source.link(to: sink)
        try pipeline.play()
        defer { pipeline.stop() }
        for index in 0..<10 {
            #expect(try Self.pushRamp(index, into: source) == .ok)
        }
        #expect(source.endOfStream() == .ok)
        var pulled: [Sample] = []
        while let sample = sink.pullSample() { pulled.append(sample) }
        #expect(pulled.count == 10)
        #expect(sink.isEndOfStream)
        for (index, sample) in pulled.enumerated() {
            let buffer = try #require(sample.buffer)
            #expect(buffer.pts == ClockTime(index) * Self.tenMilliseconds)
            #expect(buffer.duration == Self.tenMilliseconds)
            #expect(buffer.bytes == Self.ramp(index))
        }
        let caps = try #require(pulled.first?.caps)
        #expect(try AudioInfo(caps: caps) == Self.audio)
        // After end of stream, a push is refused.
        #expect(try source.push(bytes: Self.ramp(10), pts: 0, duration: Self.tenMilliseconds) == .endOfStream)
    }

    @Test(
        "From a description, pull mode: need-data pushes 6 buffers then ends; the samples sequence has them all, in order"
    )
    func needDataSequence() async throws {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! queue ! appsink name=sink sync=false")
        let source = try pipeline.appSrc(named: "src")
        source.caps = try Self.audio.caps
        let produced = Locked(0)
        source.onNeedData { _ in
            let index = produced.withLock { count in
                defer { count += 1 }
                return count
            }
            if index < 6 {
                _ = try? Self.pushRamp(index, into: source)
            } else if index == 6 {
                source.endOfStream()
            }
        }
        // The handler holds `source` and the appsrc holds the handler: removing it ends that cycle
        // (LeakSanitizer found the whole pipeline alive at exit without it).
        defer { source.onNeedData(nil) }
        let samples = pipeline.samples(from: try pipeline.appSink(named: "sink"))
        try pipeline.play()
        defer { pipeline.stop() }
        var timestamps: [ClockTime?] = []
        var firstSamples: [Int16] = []
        for try await sample in samples {
            let buffer = try #require(sample.buffer)
            timestamps.append(buffer.pts)
            let bytes = buffer.bytes
            firstSamples.append(Int16(bytes[0]) | Int16(bytes[1]) << 8)
        }
        #expect(timestamps == (0..<6).map { ClockTime($0) * Self.tenMilliseconds })
        #expect(firstSamples == [0, 100, 200, 300, 400, 500])
    }

    @Test(
        "A full queue calls enough-data: with max-buffers 3 and no block, 8 pushes before preroll leave the queue over its limit"
    )
    func enoughData() throws {
        let pipeline = try Pipeline(launch: "appsrc name=src ! appsink name=sink")
        let source = try pipeline.appSrc(named: "src")
        source.format = .time
        source.caps = try Self.audio.caps
        source.maxBuffers = 3
        source.maxBytes = 0
        #expect(source.block == false)
        let enough = Locked(0)
        source.onEnoughData { enough.withLock { $0 += 1 } }
        // The appsink prerolls with the first buffer and then holds it: the rest stay queued in appsrc.
        try pipeline.setState(.paused)
        defer { pipeline.stop() }
        for index in 0..<8 {
            try Self.pushRamp(index, into: source)
        }
        #expect(enough.withLock { $0 } >= 1)
        #expect(source.queued.buffers >= 3)
        #expect(source.queued.bytes == source.queued.buffers * 160)
        #expect(source.queued.time == ClockTime(source.queued.buffers) * Self.tenMilliseconds)
        let preroll = try #require(try pipeline.appSink(named: "sink").tryPullPreroll(timeout: .seconds(5)))
        #expect(preroll.buffer?.pts == 0)
    }

    @Test("try-pull waits its timeout when nothing comes (live source), and returns a sample pushed meanwhile")
    func tryPullTimeout() throws {
        let (pipeline, source, sink) = try Self.appPipeline(
            "appsrc name=src is-live=true format=time ! appsink name=sink sync=false")
        #expect(source.isLive)
        try pipeline.play()
        defer { pipeline.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(sink.tryPullSample(timeout: .milliseconds(200)) == nil)
        #expect(clock.now - start >= .milliseconds(190))
        _ = try source.push(bytes: Self.ramp(3), pts: 30_000_000, duration: Self.tenMilliseconds)
        let sample = try #require(sink.tryPullSample(timeout: .seconds(5)))
        #expect(sample.buffer?.pts == 30_000_000)
        #expect(sample.buffer?.bytes == Self.ramp(3))
    }

    @Test("With block and max-buffers 2, a producer thread is held back by a slow reader: never more than 2 queued")
    func blockBoundsQueue() async throws {
        let (pipeline, source, sink) = try Self.appPipeline(
            "appsrc name=src format=time block=true max-bytes=0 max-buffers=2 ! appsink name=sink sync=false max-buffers=1"
        )
        #expect(source.block)
        #expect(source.maxBuffers == 2)
        try pipeline.play()
        defer { pipeline.stop() }
        let maxQueued = Locked<UInt64>(0)
        let producer = Task.detached {
            for index in 0..<20 {
                try Self.pushRamp(index, into: source)
                let level = source.queued.buffers
                maxQueued.withLock { $0 = max($0, level) }
            }
            source.endOfStream()
        }
        var count = 0
        while let sample = await sink.nextSample() {
            #expect(sample.buffer?.pts == ClockTime(count) * Self.tenMilliseconds)
            count += 1
            try await Task.sleep(for: .milliseconds(5))
        }
        try await producer.value
        #expect(count == 20)
        #expect(maxQueued.withLock { $0 } <= 2)
    }

    @Test("A seekable appsrc gets seek-data with the seek's position, and goes on from there")
    func seekData() async throws {
        let (pipeline, source, sink) = try Self.appPipeline(
            "appsrc name=src format=time ! appsink name=sink sync=false")
        source.streamType = .seekable
        source.streamDuration = 1_000_000_000
        #expect(source.streamType == .seekable)
        let next = Locked<ClockTime>(0)
        let seeks = Locked<[UInt64]>([])
        source.onNeedData { _ in
            let pts = next.withLock { pts in
                defer { pts += Self.tenMilliseconds }
                return pts
            }
            if pts < 1_000_000_000 {
                _ = try? source.push(bytes: Self.ramp(0), pts: pts, duration: Self.tenMilliseconds)
            } else {
                source.endOfStream()
            }
        }
        source.onSeekData { offset in
            seeks.withLock { $0.append(offset) }
            next.withLock { $0 = offset }
            return true
        }
        defer { source.onNeedData(nil) }  // the handler holds `source`: see needDataSequence
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        defer { pipeline.stop() }
        #expect(pipeline.duration == 1_000_000_000)
        #expect(try pipeline.seek(rate: 1, flags: [.flush, .accurate], start: 500_000_000))
        try pipeline.play()
        // The first sample after the flushing seek starts at the position sought.
        let sample = try #require(await sink.nextSample(timeout: .seconds(5)))
        #expect(sample.buffer?.pts == 500_000_000)
        #expect(seeks.withLock { $0 }.contains(500_000_000))
    }

    @Test("Samples pushed carry their caps: a change of caps mid-stream reaches the appsink with the next buffer")
    func pushSamples() throws {
        let (pipeline, source, sink) = try Self.appPipeline(
            "appsrc name=src format=time ! appsink name=sink sync=false")
        sink.maxBuffers = 0
        try pipeline.play()
        defer { pipeline.stop() }
        let stereo = try AudioInfo(format: .s16, rate: 8000, channels: 2)
        for (index, info) in [try Self.audio, try Self.audio, stereo].enumerated() {
            let buffer = try Buffer(
                bytes: Self.ramp(index), pts: ClockTime(index) * Self.tenMilliseconds, duration: nil)
            #expect(source.push(Sample(buffer: buffer, caps: info.caps)) == .ok)
        }
        source.endOfStream()
        var channels: [Int?] = []
        while let sample = sink.pullSample() { channels.append(sample.caps?.int("channels")) }
        #expect(channels == [1, 1, 2])
        #expect(source.caps?.int("channels") == 2)
    }

    @Test("The AppSrc article's example: 10 ms of silence pushed comes out through audioconvert, at 0, 960 bytes")
    func readmeExample() async throws {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! audioconvert ! appsink name=sink sync=false")
        let source = try pipeline.appSrc(named: "src")
        source.caps = try AudioInfo(format: .s16, rate: 48000, channels: 1).caps
        let samples = pipeline.samples(from: try pipeline.appSink(named: "sink"))
        try pipeline.play()
        try source.push(bytes: [UInt8](repeating: 0, count: 960), pts: 0, duration: 10_000_000)
        source.endOfStream()
        var seen: [(ClockTime?, Int?)] = []
        for try await sample in samples { seen.append((sample.buffer?.pts, sample.buffer?.size)) }
        pipeline.stop()
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 0 && seen.first?.1 == 960)
    }

    @Test(
        "The samples of an appsink made in code end when the pipeline stops, and throw the error that ended the run",
        .timeLimit(.minutes(1)))
    func samplesEndAtStopAndError() async throws {
        let pipeline = try Pipeline(name: "live")
        let source = try AppSrc(name: "src")
        source.isLive = true
        source.caps = try Self.audio.caps
        let sink = try AppSink(name: "sink")
        try pipeline.add(source, sink)
        try source.link(to: sink)
        let samples = pipeline.samples(from: sink)
        try pipeline.play()
        try Self.pushRamp(0, into: source)
        let reader = Task {
            var count = 0
            for try await _ in samples { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(200))
        pipeline.stop()
        #expect(try await reader.value == 1)

        let (failing, failingSource, failingSink) = try Self.appPipeline(
            "appsrc name=src format=time ! identity name=breaker error-after=3 ! appsink name=sink sync=false")
        let failingSamples = failing.samples(from: failingSink)
        try failing.play()
        defer { failing.stop() }
        for index in 0..<5 { try Self.pushRamp(index, into: failingSource) }
        var received = 0
        do {
            for try await _ in failingSamples { received += 1 }
            Issue.record("the samples ended without the error")
        } catch {
            #expect(error.source == "breaker")
        }
        #expect(received == 2)
    }

    @Test("An element that is not an appsrc or appsink is refused, by name")
    func wrongElement() throws {
        let pipeline = try Pipeline(launch: "fakesrc name=fake ! fakesink")
        #expect(throws: GStreamerError.self) { try pipeline.appSrc(named: "fake") }
        do {
            _ = try pipeline.appSink(named: "fake")
            Issue.record("a fakesrc was taken for an appsink")
        } catch {
            #expect(error.message == "fake is a fakesrc, not an appsink")
        }
        do {
            _ = try pipeline.appSrc(named: "missing")
            Issue.record("a missing element was found")
        } catch {
            #expect(error.message.hasPrefix("no element named \"missing\""))
        }
    }
}
