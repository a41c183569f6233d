import Foundation
import Testing

/// A viewer whose link drops to 600 kbit/s partway through, with headless Chromium as the viewer and
/// its `getStats()` as the judge (`WebRTCBadLinkPage`): two network namespaces side by side, each
/// with gstpipe serving the same 640x360 30 frames a second SMPTE bars (their corner is noise, so
/// an encode uses its whole bit rate) and one browser watching; one with a ladder (1.5 Mbit/s and
/// 320x180 at 250 kbit/s, the default ladder's lowest), one with `?ladder=off` (one encode at 2 Mbit/s). The link is loopback,
/// limited by `tc qdisc ... tbf` (this kernel has tbf, not netem) in both at once: unlimited for
/// `before`, 600 kbit/s for `limited`, unlimited again for `after`. A third browser, in a namespace of
/// its own joined to the ladder's by a veth pair, watches the ladder on a path the limit does not touch.
@Suite(
    "WebRTCBadLinkTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/tc"), "tc is not installed (iproute2)"))
struct WebRTCBadLinkTests {
    static let before: TimeInterval = 8
    static let limited: TimeInterval = 20
    static let after: TimeInterval = 50
    /// The token bucket: 600 kbit/s, a burst of two frames' packets, at most 100 ms queued.
    static let limit = ["rate", "600kbit", "burst", "20kb", "latency", "100ms"]

    /// One side: its server and the browser watching it.
    struct Side {
        let namespace: NetworkNamespace
        let server: Spawned
        let session: BrowserSession
    }

    /// gstpipe serving at `uri` in `namespace` (a new one when nil), listening on `host`, and a
    /// browser there watching it.
    static func serve(
        _ uri: String, host: String = "127.0.0.1", in given: NetworkNamespace? = nil
    ) async throws -> Side {
        let namespace: NetworkNamespace
        if let given { namespace = given } else { namespace = try await NetworkNamespace() }
        let server = namespace.run(
            CLI.binary.path,
            [
                "videotestsrc", "is-live=true", "pattern=smpte", "!", "video/x-raw,width=640,height=360,framerate=30/1",
                "!", uri
            ])
        guard await namespace.waitForListener(8890, host: host) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            throw NetworkNamespace.NamespaceError(message: "no server")
        }
        return Side(namespace: namespace, server: server, session: try await watch(in: namespace, host: host))
    }

    /// A browser in `namespace` watching the stream gstpipe serves at `host`, for the whole run.
    static func watch(in namespace: NetworkNamespace, host: String) async throws -> BrowserSession {
        let seconds = Int(before + limited + after)
        return try await BrowserSession(
            in: namespace, query: "endpoint=http://\(host):8890/live/whep&seconds=\(seconds)",
            page: WebRTCBadLinkPage.html)
    }

    /// Two namespaces joined by a veth pair, 10.77.0.1 in the first and 10.77.0.2 in the second: a
    /// browser in the second watches gstpipe in the first on a path the limit on the first's loopback
    /// does not touch, while one in the first, watching the same address, goes through loopback (an
    /// address of its own namespace) and so through the limit.
    static func pair() async throws -> (NetworkNamespace, NetworkNamespace) {
        let (server, beside) = (try await NetworkNamespace(), try await NetworkNamespace())
        let pid = String(beside.path.split(separator: "/")[1])
        let steps: [(NetworkNamespace, [String])] = [
            (server, ["link", "add", "gstpipe0", "type", "veth", "peer", "name", "gstpipe1", "netns", pid]),
            (server, ["addr", "add", "10.77.0.1/24", "dev", "gstpipe0"]), (server, ["link", "set", "gstpipe0", "up"]),
            (beside, ["addr", "add", "10.77.0.2/24", "dev", "gstpipe1"]), (beside, ["link", "set", "gstpipe1", "up"])
        ]
        for (namespace, arguments) in steps {
            let done = await namespace.run("/usr/sbin/ip", arguments).finish(timeout: 10)
            guard done.status == 0 else {
                throw NetworkNamespace.NamespaceError(message: "ip \(arguments.joined(separator: " ")): \(done.stderr)")
            }
        }
        return (server, beside)
    }

    /// `tc qdisc` in `namespace` with `arguments` (on loopback's root).
    static func tc(_ namespace: NetworkNamespace, _ arguments: [String]) async -> CLIResult {
        await namespace.run("/usr/sbin/tc", ["qdisc"] + arguments).finish(timeout: 10)
    }

    /// What a viewer saw once a second, from its report.
    struct Sample {
        let at: Date
        let frames: Double
        let height: Int
        let freezeTime: Double

        init(_ entry: [String: Any]) {
            let number = { (name: String) in (entry[name] as? NSNumber)?.doubleValue ?? 0 }
            at = Date(timeIntervalSince1970: number("at") / 1000)
            frames = number("frames")
            height = Int(number("height"))
            freezeTime = number("freezeTime")
        }
    }

    /// Frames a second decoded between `start` and `end`, from the samples nearest inside them.
    static func fps(_ samples: [Sample], from start: Date, to end: Date) -> Double {
        let inside = samples.filter { $0.at >= start && $0.at <= end }
        guard let first = inside.first, let last = inside.last, last.at > first.at else { return 0 }
        return (last.frames - first.frames) / last.at.timeIntervalSince(first.at)
    }

    /// Seconds frozen between `start` and `end` (Chromium's totalFreezesDuration grows when a freeze ends).
    static func frozen(_ samples: [Sample], from start: Date, to end: Date) -> Double {
        let inside = samples.filter { $0.at >= start && $0.at <= end }
        return (inside.last?.freezeTime ?? 0) - (inside.first?.freezeTime ?? 0)
    }

    @Test(
        "600 kbit/s for 20 s: the ladder's viewer moves down within seconds, keeps 20 frames a second, freezes far less than one encode's, comes back up",
        .browser, .timeLimit(.minutes(3)))
    func ladderAgainstOneEncode() async throws {
        // The ladder on the veth pair's address: its own browser reaches it through loopback, the
        // other browser over the pair.
        let (namespace, besideNamespace) = try await Self.pair()
        let ladder = try await Self.serve(
            "webrtc://10.77.0.1:8890/live?ladder=640x360:1500,320x180:250", host: "10.77.0.1", in: namespace)
        let unlimited = try await Self.watch(in: besideNamespace, host: "10.77.0.1")
        let off = try await Self.serve("webrtc://127.0.0.1:8890/live?ladder=off")
        let sides = [ladder, off]
        // The viewers connect (a second or two), then watch unlimited for `before`.
        try await Task.sleep(for: .seconds(2 + Self.before))
        let limitedAt = Date()
        for side in sides {
            let added = await Self.tc(side.namespace, ["add", "dev", "lo", "root", "tbf"] + Self.limit)
            #expect(added.status == 0, "tc: \(added.stderr)")
        }
        try await Task.sleep(for: .seconds(Self.limited))
        let liftedAt = Date()
        for side in sides { _ = await Self.tc(side.namespace, ["del", "dev", "lo", "root"]) }
        var reports: [[String: Any]] = []
        var stderr: [String] = []
        let besideReport = await unlimited.result(named: "report", timeout: Self.after + 30) ?? [:]
        await unlimited.close()
        for side in sides {
            reports.append(await side.session.result(named: "report", timeout: Self.after + 30) ?? [:])
            await side.session.close()
            side.server.signal(SIGINT)
            stderr.append((await side.server.finish(timeout: 20)).stderr)
        }
        let comment = Comment(rawValue: "\(reports)\n\(besideReport)\n\(stderr.joined(separator: "\n"))")
        #expect(reports.allSatisfy { $0["error"] == nil } && besideReport["error"] == nil, comment)
        let samples = reports.map { ($0["samples"] as? [[String: Any]] ?? []).map(Sample.init) }
        let (onLadder, onOne) = (samples[0], samples[1])
        try #require(onLadder.count > 40 && onOne.count > 40, comment)

        // Before: the top rung, 640x360.
        #expect(onLadder.filter { $0.at < limitedAt }.last?.height == 360, comment)
        // Down within a few seconds of the limit, and there until it is lifted.
        let down = onLadder.first { $0.at >= limitedAt && $0.height == 180 }
        let downAfter = down.map { $0.at.timeIntervalSince(limitedAt) } ?? .infinity
        #expect(downAfter <= 6, comment)
        // There until it is lifted, but for a few seconds of trying the rung above (a guess the
        // estimate makes, refused, each later one after a longer wait: `ViewerBandwidth`), and there
        // at the end.
        let settled = limitedAt.addingTimeInterval(8)
        let meanwhile = onLadder.filter { $0.at >= settled && $0.at <= liftedAt }
        #expect(meanwhile.filter { $0.height == 180 }.count * 3 >= meanwhile.count * 2, comment)
        #expect(meanwhile.last?.height == 180, comment)
        // A moving picture at 20 frames a second or more meanwhile, and far less frozen than one encode.
        let ladderFPS = Self.fps(onLadder, from: settled, to: liftedAt)
        let oneFPS = Self.fps(onOne, from: settled, to: liftedAt)
        let end = liftedAt.addingTimeInterval(4)
        let ladderFrozen = Self.frozen(onLadder, from: limitedAt, to: end)
        let oneFrozen = Self.frozen(onOne, from: limitedAt, to: end)
        #expect(ladderFPS >= 20, comment)
        #expect(ladderFrozen * 3 < oneFrozen, comment)
        // The viewer on the unlimited path kept the top rung, and its frames, all along.
        let beside = (besideReport["samples"] as? [[String: Any]] ?? []).map(Sample.init)
        let besideFPS = Self.fps(beside, from: settled, to: liftedAt)
        #expect(beside.count > 40 && beside.dropFirst(2).allSatisfy { $0.height == 360 }, comment)
        #expect(besideFPS >= 20, comment)
        // Back up to the top rung once the limit is lifted.
        let up = onLadder.first { $0.at > liftedAt && $0.height == 360 }
        #expect(up != nil, comment)
        let heights = { (samples: [Sample]) in samples.map { String($0.height) }.joined(separator: " ") }
        print(
            "bad link: ladder down after \(downAfter) s, up after \(up.map { $0.at.timeIntervalSince(liftedAt) } ?? -1) s; "
                + "limited: ladder \(ladderFPS) fps, \(ladderFrozen) s frozen; one encode \(oneFPS) fps, \(oneFrozen) s "
                + "frozen; unlimited beside the ladder \(besideFPS) fps\n  ladder heights: \(heights(onLadder))\n"
                + "  one encode heights: \(heights(onOne))\n  unlimited heights: \(heights(beside))")
    }
}
