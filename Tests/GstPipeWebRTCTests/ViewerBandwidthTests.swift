import GstPipeWebRTC
import Testing

/// `ViewerBandwidth`, the estimate that picks each viewer's rung, fed the receiver reports a browser
/// sends once a second: a link of a given capacity, through which the rate sent above it is lost
/// (a token bucket drops what exceeds it, as `tc ... tbf` does) and queued first (the round trip grows).
@Suite("ViewerBandwidthTests")
struct ViewerBandwidthTests {
    /// The default ladder's rates: 2.5 Mbit/s, 800 and 250 kbit/s.
    static let bitrates = WebRTCLadder.standard.rungs.map(\.bitrate)

    /// A report of what a link of `capacity` bits a second makes of `sent` bits a second, `second`s in.
    static func report(second: Int, sent: Int, capacity: Int) -> ViewerBandwidth.Report {
        let over = sent > capacity
        return ViewerBandwidth.Report(
            time: .seconds(second), fractionLost: over ? 1 - Double(capacity) / Double(sent) : 0,
            jitter: over ? 0.040 : 0.004, roundTrip: over ? 0.320 : 0.012)
    }

    /// Runs `viewer` for `seconds` reports on links of `capacity(second)`; the rung after each.
    static func run(
        _ viewer: inout ViewerBandwidth, from start: Int = 0, seconds: Int, capacity: (Int) -> Int
    ) -> [Int] {
        (start..<start + seconds).map { second in
            viewer.take(report(second: second, sent: bitrates[viewer.rung], capacity: capacity(second)))
        }
    }

    @Test("loss between reports from the running totals: lost over sent since the last, none across a reset")
    func lossFromTotals() {
        var loss = LossBetweenReports()
        #expect(loss.fraction(lost: 3, sent: 1000) == nil)
        // 240 sent since, 198 of them lost (as Chromium's total rose behind a 600 kbit/s token bucket).
        #expect(loss.fraction(lost: 201, sent: 1240) == 198.0 / 240)
        #expect(loss.fraction(lost: 201, sent: 1500) == 0)
        // Nothing sent since: no fraction, and the next counts from here.
        #expect(loss.fraction(lost: 201, sent: 1500) == nil)
        // A total that went back (another stream): no fraction for that report.
        #expect(loss.fraction(lost: 0, sent: 10) == nil)
        #expect(loss.fraction(lost: 400, sent: 20) == 1)
    }

    @Test("a link limited to 600 kbit/s: down to 250 kbit/s on the first report, up-moves ever rarer, back up after")
    func limitedLink() {
        var viewer = ViewerBandwidth(bitrates: Self.bitrates)
        let clear = Self.run(&viewer, seconds: 10) { _ in 100_000_000 }
        #expect(clear.allSatisfy { $0 == 0 })
        let limited = Self.run(&viewer, from: 10, seconds: 60) { _ in 600_000 }
        // 2.5 Mbit/s through 600 kbit/s loses 76 %: what arrived (600 kbit/s) is below the 800 kbit/s rung.
        #expect(limited.first == 2)
        // It tries the 800 kbit/s rung (which the link refuses), but each try waits longer than the last.
        let tries = limited.indices.filter { $0 > 0 && limited[$0] == 1 && limited[$0 - 1] == 2 }
        #expect(tries.count >= 2 && tries.count <= 4, "tried 800 kbit/s at \(tries)")
        let gaps = zip(tries.dropFirst(), tries).map { $0 - $1 }
        #expect(gaps == gaps.sorted() && Set(gaps).count == gaps.count, "gaps \(gaps)")
        // Each refused try lasts one report: never two seconds above the link.
        #expect(!limited.indices.contains { $0 > 0 && limited[$0] < 2 && limited[$0 - 1] < 2 })
        #expect(limited.filter { $0 == 0 }.isEmpty)
        let lifted = Self.run(&viewer, from: 70, seconds: 60) { _ in 100_000_000 }
        let top = lifted.firstIndex(of: 0)
        // 48 s: the top rung, which the link stopped carrying, waits a doubled hold (8 s) once the
        // estimate is above it again.
        #expect(top != nil && top! <= 50, "back on the top rung after \(top.map(String.init) ?? "never") s")
        #expect(lifted.suffix(5).allSatisfy { $0 == 0 })
    }

    @Test("a link of 1.2 Mbit/s settles on the 800 kbit/s rung, trying the top one ever more rarely")
    func middleLink() {
        var viewer = ViewerBandwidth(bitrates: Self.bitrates)
        let rungs = Self.run(&viewer, seconds: 60) { _ in 1_200_000 }
        // 2.5 Mbit/s through 1.2: 48 % arrives, 1.2 Mbit/s, which carries the 800 kbit/s rung.
        #expect(rungs.first == 1)
        #expect(!rungs.contains(2))
        // It tries the top rung now and then, a report each time, ever more rarely.
        let tries = rungs.indices.filter { rungs[$0] == 0 }
        #expect(tries.count <= 4, "tried 2.5 Mbit/s at \(tries)")
        #expect(!tries.contains { tries.contains($0 + 1) })
    }

    @Test("queueing alone (a round trip up, nothing lost yet) moves the viewer down once it lasts; one stall does not")
    func queueing() {
        var viewer = ViewerBandwidth(bitrates: Self.bitrates)
        for second in 0..<5 {
            viewer.take(.init(time: .seconds(second), fractionLost: 0, jitter: 0.003, roundTrip: 0.010))
        }
        #expect(viewer.rung == 0)
        // The server stopped for 0.3 s: one report's round trip 165 ms, the next one's back to normal.
        #expect(viewer.take(.init(time: .seconds(5), fractionLost: 0, jitter: 0.003, roundTrip: 0.165)) == 0)
        #expect(viewer.take(.init(time: .seconds(6), fractionLost: 0, jitter: 0.003, roundTrip: 0.001)) == 0)
        // A queue: the round trip stays up.
        #expect(viewer.take(.init(time: .seconds(7), fractionLost: 0, jitter: 0.030, roundTrip: 0.260)) == 0)
        #expect(viewer.take(.init(time: .seconds(8), fractionLost: 0, jitter: 0.030, roundTrip: 0.300)) == 1)
        // A late report that also loses packets is a queue at once.
        var losing = ViewerBandwidth(bitrates: Self.bitrates)
        losing.take(.init(time: .seconds(0), fractionLost: 0, jitter: 0.003, roundTrip: 0.010))
        #expect(losing.take(.init(time: .seconds(1), fractionLost: 0.05, jitter: 0.030, roundTrip: 0.260)) == 1)
    }

    @Test("a little loss (a Wi-Fi link's 3 %) holds the rung: neither down nor up")
    func lightLoss() {
        var viewer = ViewerBandwidth(bitrates: Self.bitrates, startingOn: 1)
        for second in 0..<30 {
            viewer.take(.init(time: .seconds(second), fractionLost: 0.03, jitter: 0.010, roundTrip: 0.040))
        }
        #expect(viewer.rung == 1)
        // A single bad report among good ones moves the viewer down, but on the report alone.
        viewer.take(.init(time: .seconds(30), fractionLost: 0.5, jitter: 0.010, roundTrip: 0.040))
        #expect(viewer.rung == 2)
    }

    @Test("ladder options: the default, off, rungs given, and each mistake named")
    func ladderOptions() throws {
        #expect(try WebRTCLadder(option: "off").rungs.count == 1)
        let given = try WebRTCLadder(option: "1280x720:2000,480x270:500")
        #expect(given.rungs.map(\.bitrate) == [2_000_000, 500_000])
        #expect(given.rungs.map(\.width) == [1280, 480])
        #expect(WebRTCLadder.standard.fitting(width: 1280, height: 720).rungs.count == 3)
        #expect(WebRTCLadder.standard.fitting(width: 640, height: 360).rungs.count == 2)
        #expect(WebRTCLadder.standard.fitting(width: 320, height: 240).rungs.count == 1)
        #expect(given.check(width: 1280, height: 720) == nil)
        #expect(
            given.check(width: 640, height: 480)?.message
                == "the ladder's rung 1280x720:2000 is larger than the source (640x480): "
                + "give rungs no larger than it, or ladder=off")
        let mistakes = [
            ("640x360:0", "'640x360:0' has a bit rate of 0 kbit/s: write one from 1 to 100000"),
            ("640x360", "'640x360' is not a rung: write ladder=off or ladder=WxH:KBPS,..."),
            ("640x361:500", "'640x361:500' is not a picture size that can be encoded"),
            ("320x180:250,640x360:800", "'640x360:800' is not smaller than the rung before it"),
            ("a,b,c,d,e", "has 5 rungs, at most 4 are encoded")
        ]
        for (option, expected) in mistakes {
            #expect(throws: WebRTCLadder.Failure.self) { try WebRTCLadder(option: option) }
            do {
                _ = try WebRTCLadder(option: option)
            } catch {
                #expect(error.message.contains(expected), "\(error.message)")
                #expect(error.message.hasPrefix("ladder=\(option)"))
            }
        }
    }
}
