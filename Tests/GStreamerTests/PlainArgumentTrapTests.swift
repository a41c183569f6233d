import CGStreamer
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// Plain arguments that trapped inside the core: each is now a thrown error naming what is wrong, or the
/// value that argument means. They run in this process, so a trap would end the test run.
@Suite("Plain arguments that must not trap", .bounded)
struct PlainArgumentTrapTests {
    @Test("seek(to: .max) seeks past the end (end of stream follows); a duration answered as ClockTime.max is unknown")
    func seekAndDurationAtMax() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=100 ! video/x-raw,framerate=25/1 ! fakesink sync=false")
        let sourcePad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let answer = Locked<ClockTime>(ClockTime.max)
        sourcePad.addProbe(.queryUpstream) { info in
            guard let query = info.query, query.typeName == "duration" else { return .ok }
            query.setDuration(answer.withLock { $0 })
            return .handled
        }
        let messages = pipeline.messages
        try await pipeline.changeState(to: .paused, timeout: 5_000_000_000)
        #expect(pipeline.duration == nil)
        answer.withLock { $0 = ClockTime.max - 1 }
        #expect(pipeline.duration == ClockTime(Int64.max))
        #expect(pipeline.seek(to: .max, stop: .max))
        try await pipeline.changeState(to: .playing)
        var ended = false
        let deadline = ContinuousClock.now + .seconds(10)
        for await message in messages {
            if case .endOfStream = message {
                ended = true
                break
            }
            if ContinuousClock.now > deadline { break }
        }
        #expect(ended)
        try await pipeline.changeState(to: .null)
    }

    @Test(
        "A seek at rate 0, infinite or NaN, or a step at rate 0 or less, throws naming the rate; other rates make the event"
    )
    func seekRates() throws {
        try GStreamer.initialize()
        let zero = thrown { _ = try Event.seek(rate: 0, start: 0) }
        #expect(zero?.kind == .invalidArgument)
        #expect(zero?.message.hasPrefix("a seek at rate 0.0: give a finite rate other than 0") == true)
        #expect(thrown { _ = try Event.seek(rate: .nan, start: 0) } != nil)
        #expect(thrown { _ = try Event.seek(rate: -.infinity, start: nil) } != nil)
        let pipeline = try Pipeline(launch: "videotestsrc ! fakesink")
        #expect(thrown { _ = try pipeline.seek(rate: 0, start: 0) }?.kind == .invalidArgument)
        #expect(try Event.seek(rate: -2, start: 0).seek?.rate == -2)
        // A step's rate is its speed, with the direction the last seek set: 0 or less trapped in GStreamer.
        let step = thrown { _ = try Event.step(1, rate: 0) }
        #expect(step?.kind == .invalidArgument)
        #expect(step?.message.hasPrefix("a step at rate 0.0: give a finite rate above 0") == true)
        #expect(
            thrown { _ = try Event.step(1, rate: -1) } != nil && thrown { _ = try Event.step(1, rate: .nan) } != nil)
        #expect(try Event.step(2, rate: 0.5).typeName == "step")
    }

    @Test("ANY and empty caps cannot be fixated: a thrown error, as for an unlinked pad's caps")
    func fixateAny() throws {
        try GStreamer.initialize()
        let any = thrown { _ = try Caps.any.fixated() }
        #expect(any?.kind == .invalidArgument)
        #expect(any?.message.hasPrefix("ANY caps have no format to fixate") == true)
        let empty = thrown { _ = try Caps("EMPTY").fixated() }
        #expect(empty?.message.hasPrefix("empty caps have no format to fixate") == true)
        let identity = try ElementFactory.make("identity")
        let unlinked = try #require(identity.pad(named: "src"))
        #expect(unlinked.queryCaps().isAny)
        #expect(thrown { _ = try unlinked.queryCaps().fixated() } != nil)
        #expect(try Caps("video/x-raw, width=[1, 10]").fixated().isFixed)
    }

    @Test("select-streams with no id throws; Buffer(size: -1) throws; a region past Int.max is nil")
    func eventsAndBuffers() throws {
        try GStreamer.initialize()
        let select = thrown { _ = try Event.selectStreams([]) }
        #expect(select?.message == "a select-streams event needs at least one stream id: name the streams to play")
        let negative = thrown { _ = try Buffer(size: -1) }
        #expect(negative?.kind == .invalidArgument)
        #expect(negative?.message == "a buffer of -1 bytes: give a size of 0 or more")
        let buffer = try Buffer(size: 16)
        #expect(buffer.region(offset: .max, size: 1) == nil)
        #expect(buffer.region(offset: 1, size: .max) == nil)
        #expect(buffer.region(offset: 4, size: 12)?.size == 12)
        #expect(try Buffer(size: 0).size == 0)
    }

    @Test("AudioInfo refuses rates and channel counts out of range; durations of negative counts are 0")
    func audioInfo() throws {
        let rate = thrown { _ = try AudioInfo(format: .s16, rate: -48000, channels: 2) }
        #expect(rate?.kind == .invalidArgument)
        #expect(rate?.message == "an audio rate of -48000 Hz is out of range: give 1 to 2147483647")
        #expect(thrown { _ = try AudioInfo(format: .s16, rate: Int.max, channels: 2) } != nil)
        #expect(
            thrown { _ = try AudioInfo(format: .s16, rate: 48000, channels: 0) }?.message
                == "0 audio channels is out of range: give 1 to 64")
        #expect(thrown { _ = try AudioInfo(format: .s16, rate: 48000, channels: -1) } != nil)
        #expect(thrown { _ = try AudioInfo(format: .s16, rate: 48000, channels: 65) } != nil)
        #expect(
            thrown { _ = try AudioInfo(format: .s16, rate: 48000, channels: 2, positions: [.mono]) }?.message
                == "1 channel positions for 2 channels: give one per channel")
        let noRate = try Caps("audio/x-raw, format=S16LE, rate=0, channels=1, layout=interleaved")
        #expect(thrown { _ = try AudioInfo(caps: noRate) } != nil)
        let info = try AudioInfo(format: .f32, rate: 48000, channels: 2)
        #expect(info.duration(ofSamples: -5) == 0)
        #expect(info.duration(ofSamples: 48000) == 1_000_000_000)
        #expect(info.samples(in: ClockTime.max) > 0)
        #expect(try AudioInfo(caps: info.caps) == info)
    }

    @Test("A tag date of year 70000 throws from setDate, and the setters leave the tag as it was")
    func tagDates() throws {
        var tags = TagList()
        tags.date = DateTime(year: 2009, month: 6, day: 21)
        let far = thrown { try tags.setDate(DateTime(year: 70000, month: 1, day: 1)) }
        #expect(far?.kind == .invalidArgument)
        #expect(far?.message.contains("give a year from 1 to 65535, a month and a day") == true)
        tags.date = DateTime(year: 70000, month: 1, day: 1)
        tags.date = DateTime(year: 2024, month: 2, day: 30)
        #expect(tags.date == DateTime(year: 2009, month: 6, day: 21))
        #expect(thrown { try tags.setDate(DateTime(year: Int.max, month: 1, day: 1)) } != nil)
        #expect(thrown { try tags.setDate(DateTime(year: 2009, month: 13, day: 1)) } != nil)
        let time = thrown { try tags.setDateTime(DateTime(year: 70000)) }
        #expect(time?.message == "a datetime tag cannot hold it: the year 70000 is outside 1...9999")
        tags.dateTime = DateTime(year: Int.max, month: Int.min, day: 1)
        #expect(tags.dateTime == nil)
        try tags.setDateTime(DateTime(year: 2009, month: 6, day: 21, hour: 14, minute: 30, second: 5, utcOffset: 0))
        #expect(tags.dateTime?.hour == 14)
        #expect(DateTime(year: 70000).description == "70000")
    }
}
