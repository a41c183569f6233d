import Foundation
import GstPipeSupport
import MediaIO
import Synchronization
import Testing

/// Runs `description` to its end and gives what `audiorecord tag=TAG` recorded.
func record(_ description: String, tag: String) async throws -> [AudioRecordingSink.Record] {
    AudioTestElements.register()
    AudioRecordingSink.records.withLock { $0[tag] = [] }
    try await Pipeline(launch: description).run()
    return AudioRecordingSink.records.withLock { $0[tag] ?? [] }
}

@Suite("MediaIO audio: formats, layouts, re-chunking, timestamps, conversion, pull mode, lifecycle", .bounded)
struct AudioTests {
    static let layouts = [false, true]

    @Test(
        "Every sample format and layout round-trips source → filter → sink exactly (through an appsrc, and pulled)",
        arguments: AudioSampleFormat.allCases, layouts)
    func roundTrip(format: AudioSampleFormat, planar: Bool) async throws {
        let expected = (0..<1000).flatMap { n in
            (0..<3).map { AudioPattern.stored(AudioPattern.value(sample: n, channel: $0), format) }
        }
        for source in ["audiopattern", "audiopulled"] {
            let tag = "round-\(source)-\(format.gstreamerName)-\(planar)"
            let records = try await record(
                "\(source) format=\(format.gstreamerName) planar=\(planar) channels=3 rate=32000 samples=1000 push=333 "
                    + "! audiopass ! audiorecord tag=\(tag) format=\(format.gstreamerName) sync=false",
                tag: tag)
            let info = try #require(records.first?.info)
            #expect(info.format == format && info.channels == 3 && info.rate == 32000, "\(source)")
            #expect(info.layout == (planar ? .nonInterleaved : .interleaved), "\(source)")
            #expect(records.flatMap(\.samples) == expected, "\(source)")
        }
    }

    @Test(
        "Pushes of any size are cut into the buffers asked for: 1-sample pushes, 441-sample (10 ms) buffers at 44.1 kHz"
    )
    func rechunking() async throws {
        let records = try await record(
            "audiopattern channels=2 rate=44100 samples=4500 push=1 per-buffer=441 ! audiorecord tag=chunks sync=false",
            tag: "chunks")
        #expect(records.map { $0.samples.count / 2 } == Array(repeating: 441, count: 10) + [90])
        #expect(records.map(\.timestamp) == (0..<11).map { UInt64($0) * 10_000_000 })
        // The samples are the pushes' own, in order, none lost at the cuts.
        let expected = (0..<4500).flatMap { n in
            (0..<2).map { AudioPattern.stored(AudioPattern.value(sample: n, channel: $0), .s16) }
        }
        #expect(records.flatMap(\.samples) == expected)
    }

    @Test("Odd pushes into odd buffers keep time exactly: each buffer starts where the last ended, for 10 minutes")
    func noDrift() async throws {
        // 10 minutes at 44.1 kHz in pushes of 1000 cut into 441-sample buffers: 60,000 buffers, each
        // timed from the sample count (a clock or a per-buffer rounding would drift by now).
        let total = 44100 * 600
        let records = try await record(
            "audiopattern channels=1 rate=44100 samples=\(total) push=1000 per-buffer=441 silent=true "
                + "! audiorecord tag=drift times-only=true sync=false",
            tag: "drift")
        #expect(records.count == 60000)
        var sent = 0
        var contiguous = true
        for (index, record) in records.enumerated() {
            let expected = UInt64(sent) * 1_000_000_000 / 44100
            if record.timestamp != expected
                || (index > 0 && records[index - 1].timestamp + records[index - 1].duration != record.timestamp)
            {
                contiguous = false
                Issue.record("buffer \(index) at \(record.timestamp) ns, the count says \(expected) ns")
                break
            }
            sent += 441
        }
        #expect(contiguous)
        let last = try #require(records.last)
        #expect(last.timestamp + last.duration == 600_000_000_000)
    }

    @Test("A sink asking for 16 kHz mono gets 16 kHz mono from 48 kHz stereo: the element converts")
    func sinkConverts() async throws {
        AudioTestElements.register()
        let records = try await record(
            "audiotestsrc wave=sine freq=440 num-buffers=48 samplesperbuffer=1000 ! audio/x-raw,rate=48000,channels=2 "
                + "! audiorecord tag=convert rate=16000 channels=1 format=S16LE sync=false",
            tag: "convert")
        let info = try #require(records.first?.info)
        #expect(info.rate == 16000 && info.channels == 1 && info.format == .s16)
        let samples = records.flatMap(\.samples)
        #expect(abs(samples.count - 16000) <= 64, "one second of 48 kHz becomes about 16000 samples: \(samples.count)")
        // Still a 440 Hz tone: 880 sign changes a second.
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) <= 4, "\(crossings) zero crossings")
    }

    @Test("A pushed timestamp far from the count starts it again there, flagged as a discontinuity")
    func discontinuity() async throws {
        AudioTestElements.register()
        try MediaIOElements.registerAudioSource(name: "jumpsrc", longName: "Jump", description: "Test") { _ in
            JumpSource()
        }
        let records = try await record("jumpsrc ! audiorecord tag=jump sync=false", tag: "jump")
        #expect(records.map(\.timestamp) == [0, 10_000_000, 1_000_000_000, 1_010_000_000])
        // GStreamer marks a stream's first buffer as a discontinuity too.
        #expect(records.map(\.discontinuity) == [true, false, true, false])
    }

    @Test("Pull mode: an empty queue gives silence and the count of missing samples; queued samples come out in order")
    func pullMode() async throws {
        AudioTestElements.register()
        let stereo = try AudioInfo(format: .s16, rate: 48000, channels: 2)
        try MediaIOElements.registerAudioSink(name: "pulltest", longName: "Pull", description: "Test") { _ in
            AudioPullSink(format: stereo, capacityMilliseconds: 100)
        }
        let pipeline = try Pipeline(
            launch: "audiopattern channels=2 rate=48000 samples=960 push=480 ! pulltest name=device sync=false")
        let device = try #require(pipeline.mediaIOElement(named: "device", as: AudioPullSink.self))
        let empty = try device.pull(480, as: Int16.self)
        #expect(empty.missing == 480)
        #expect(empty.samples == Array(repeating: 0, count: 960))
        try pipeline.play()
        // Wait (bounded) for both buffers to be queued.
        for _ in 0..<200 where !(device.queuedSamples == 960) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(device.queuedSamples == 960)
        let first = try device.pull(700, as: Int16.self)
        #expect(first.missing == 0)
        let expected = (0..<960).flatMap { n in
            (0..<2).map { Int16(AudioPattern.stored(AudioPattern.value(sample: n, channel: $0), .s16)) }
        }
        #expect(first.samples == Array(expected.prefix(1400)))
        let rest = try device.pull(480, as: Int16.self)
        #expect(rest.missing == 480 - 260)
        #expect(Array(rest.samples.prefix(520)) == Array(expected.suffix(520)))
        #expect(rest.samples.suffix(440).allSatisfy { $0 == 0 })
        for _ in 0..<200 where !device.isFinished { try await Task.sleep(for: .milliseconds(10)) }
        #expect(device.isFinished)
        pipeline.stop()
    }

    // Without the flush reaching the sink, the seek never returns: the time limit ends the test.
    @Test(
        "A seek into a pull sink nobody pulls from returns, and the next pull gives audio from after the seek",
        .timeLimit(.minutes(1)))
    func pullSinkSeek() async throws {
        AudioTestElements.register()
        let stereo = try AudioInfo(format: .s16, rate: 48000, channels: 2)
        try MediaIOElements.registerAudioSink(name: "seekdevice", longName: "Pull", description: "Test") { _ in
            AudioPullSink(format: stereo)
        }
        // One second of silence, then two of a tone.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-seek-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let caps = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"
        try await Pipeline(
            launch: "concat name=c ! wavenc ! filesink location=\(file.path) "
                + "audiotestsrc wave=silence num-buffers=48 samplesperbuffer=1000 ! \(caps) ! c. "
                + "audiotestsrc wave=sine volume=0.5 num-buffers=96 samplesperbuffer=1000 ! \(caps) ! c."
        ).run()
        let pipeline = try Pipeline(launch: "filesrc location=\(file.path) ! wavparse ! seekdevice name=d sync=false")
        let device = try #require(pipeline.mediaIOElement(named: "d", as: AudioPullSink.self))
        try pipeline.play()
        for _ in 0..<300 where device.queuedSamples < device.capacity - 1000 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(device.queuedSamples >= device.capacity - 1000, "the queue filled with silence")
        // The streaming thread waits in render for room; the flush must let it go.
        let sought = DispatchSemaphore(value: 0)
        let result = Locked(false)
        Thread.detachNewThread {
            let done = pipeline.seek(to: 2_000_000_000, accurate: true)
            result.withLock { $0 = done }
            sought.signal()
        }
        #expect(sought.wait(timeout: .now() + 5) == .success, "the seek returned")
        #expect(result.withLock { $0 })
        for _ in 0..<300 where device.queuedSamples < 480 { try await Task.sleep(for: .milliseconds(10)) }
        let pulled = try device.pull(480, as: Int16.self)
        #expect(pulled.missing == 0)
        #expect(
            (pulled.samples.map { abs(Int($0)) }.max() ?? 0) > 4000,
            "the tone from after the seek, not the silence before")
        pipeline.stop()
        #expect(device.isFinished, "a stopped sink is finished")
    }

    @Test("A seek through a Swift audio filter: the next frame is at the seek position, nothing stale follows")
    func seekThroughFilter() async throws {
        AudioTestElements.register()
        let pipeline = try Pipeline(
            launch:
                "audiotestsrc samplesperbuffer=480 ! audio/x-raw,rate=48000,channels=1 ! audiopass ! appsink name=out sync=false"
        )
        let frames = try pipeline.audioFrames(fromAppSink: "out")
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        #expect(pipeline.seek(to: 2_000_000_000, accurate: true))
        try pipeline.play()
        var iterator = frames.makeAsyncIterator()
        var timestamps: [ClockTime] = []
        while timestamps.count < 5, let frame = try await iterator.next() { timestamps.append(frame.timestamp) }
        pipeline.stop()
        #expect(timestamps == (0..<5).map { 2_000_000_000 + UInt64($0) * 10_000_000 })
    }

    @Test("Lifecycle: initialize, start, stop, dispose, once each, for an audio source, filter and sink")
    func lifecycle() async throws {
        _ = try await record(
            "audiopattern tag=asrc samples=960 ! audiopass tag=afilter ! audiorecord tag=asink sync=false", tag: "asink"
        )
        for tag in ["asrc", "afilter", "asink"] {
            #expect(LifecycleLog.shared.calls(tag) == ["initialize", "start", "stop", "dispose"], "\(tag)")
        }
    }

    @Test(
        "Frames a source makes go out as they are: the very memory it filled reaches the sink",
        arguments: ["audiopattern", "audiopulled"])
    func zeroCopy(source: String) async throws {
        AudioTestElements.register()
        let tag = "zero-\(source)"
        AudioPatternSource.pushedMemory.withLock { $0[tag] = [] }
        let pipeline = try Pipeline(
            launch: "\(source) tag=\(tag) frames=true samples=4800 ! audiopass ! appsink name=out sync=false")
        let frames = try pipeline.audioFrames(fromAppSink: "out")
        try pipeline.play()
        var received: [UInt] = []
        for try await frame in frames { received += frame.buffer.memoryRoots }
        pipeline.stop()
        #expect(received.count == 10)
        #expect(received == AudioPatternSource.pushedMemory.withLock { $0[tag] ?? [] })
    }

    /// `audiopulled` is the same source without an appsrc (see PulledSourceTests).
    @Test("Eight audio pipelines at once each get all their samples", arguments: ["audiopattern", "audiopulled"])
    func concurrent(source: String) async throws {
        AudioTestElements.register()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let tag = "parallel-\(source)-\(index)"
                    AudioRecordingSink.records.withLock { $0[tag] = [] }
                    try await Pipeline(
                        launch:
                            "\(source) samples=48000 push=777 per-buffer=480 ! audiopass copy=true ! audiorecord tag=\(tag) sync=false"
                    ).run()
                    return AudioRecordingSink.records.withLock { $0[tag] ?? [] }.reduce(0) { $0 + $1.samples.count / 2 }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 48000, count: 8))
    }

    @Test("Reading a frame as the wrong type is an error that names the right one")
    func wrongType() throws {
        let info = try AudioInfo(format: .f32, rate: 48000, channels: 2)
        let frame = try [Float](repeating: 0.5, count: 8).withUnsafeBufferPointer {
            try AudioFrame(copying: $0, info: info, timestamp: 0)
        }
        #expect(frame.sampleCount == 4)
        #expect(throws: MediaIOError.self) { try frame.withSamples(as: Int16.self) { _ in } }
        do {
            try frame.withSamples(as: Int16.self) { _ in }
        } catch {
            #expect("\(error)" == "the frame holds F32LE samples, not Int16: read them as Float")
        }
        #expect(try frame.withSamples(as: Float.self) { Array($0) } == Array(repeating: 0.5, count: 8))
    }

    @Test("AudioInfo from and to caps, with channel positions")
    func audioInfoCaps() throws {
        let info = try AudioInfo(format: .s16, rate: 44100, channels: 6)
        #expect(info.positions.count == 6 && !info.positions.contains(.none))
        let back = try AudioInfo(caps: info.caps)
        #expect(back == info)
        #expect(info.caps.int("rate") == 44100)
        let stereo = try AudioInfo(caps: Caps("audio/x-raw,format=F32LE,layout=non-interleaved,rate=8000,channels=2"))
        #expect(
            stereo.format == .f32 && stereo.layout == .nonInterleaved && stereo.positions == [.frontLeft, .frontRight])
        #expect(throws: GStreamerError.self) {
            try AudioInfo(caps: Caps("audio/x-raw,format=S24LE,rate=8000,channels=1,layout=interleaved"))
        }
    }
}

/// Pushes two 10 ms buffers, then two more with a timestamp a second in.
private final class JumpSource: AudioSource {
    private let consumer = Locked<(any AudioFrameConsumer)?>(nil)
    private let done = Locked(false)

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        guard
            consumer.negotiate(AudioFormatRequest(formats: [.s16], rate: 48000, channels: 1, samplesPerBuffer: 480))
                != nil
        else { return false }
        self.consumer.withLock { $0 = consumer }
        return true
    }

    func produceAudio() {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        guard !done.withLock({ $0 }) else {
            consumer.endOfStream()
            return
        }
        let samples = [Int16](repeating: 100, count: 960)
        consumer.consumeSamples(samples)
        consumer.consumeSamples(samples, timestamp: 1_000_000_000)
        done.withLock { $0 = true }
    }
}
