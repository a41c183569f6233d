import Foundation
import GstPipeSupport
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The limits a WebRTC signalling server holds each connection to, beyond Hummingbird's idle timeout
/// (which every part of a request restarts, so that a body sent a byte at a time would hold its
/// connection forever), and a publisher to until it connects.
package struct ServerLimits: Sendable {
    /// How long one request may take, from its first byte to the end of its body: a browser sends an
    /// offer (a few KiB) at once, and a request that takes longer is holding a connection, not
    /// sending one.
    package var requestTime: Duration = .seconds(10)
    /// Connections open at once from one address: a browser opens a few (its page, the offer, the
    /// DELETE), a machine with several tabs or viewers behind one NAT a few dozen; a peer holding
    /// hundreds holds the server's file descriptors.
    package var connectionsPerAddress = 32
    /// How long a publisher has, from its answer, to connect (ICE and DTLS) before its place is given
    /// to the next: a browser connects within a second or two, and one that never does (it vanished,
    /// or it only POSTed) would otherwise keep the only place.
    package var publisherConnect: Duration = .seconds(15)
    /// How long a connected publisher of the library's (`BrowserPublisher`) may send no media that
    /// decodes, from its connection or its last sample, before its place is given to the next: a
    /// browser sends frames at once and steadily, and one that stops (a peer that only connects, a tab
    /// frozen without closing its connection) would otherwise keep the only place for ever.
    package var publisherSilence: Duration = .seconds(10)

    /// The limits, with those `GSTPIPE_WEBRTC_LIMITS` sets
    /// (`request=SECONDS,per-address=N,connect=SECONDS,silence=SECONDS`)
    /// in place of the defaults: for tests, which cannot wait the defaults' seconds. A part that cannot
    /// be read is left at its default.
    package static var current: ServerLimits {
        var limits = ServerLimits()
        let text = ProcessInfo.processInfo.environment["GSTPIPE_WEBRTC_LIMITS"] ?? ""
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let value = Double(pair[1]), value > 0, value < 3600 else { continue }
            switch pair[0] {
            case "request": limits.requestTime = .milliseconds(Int64(value * 1000))
            case "per-address": limits.connectionsPerAddress = Int(value)
            case "connect": limits.publisherConnect = .milliseconds(Int64(value * 1000))
            case "silence": limits.publisherSilence = .milliseconds(Int64(value * 1000))
            default: continue
            }
        }
        return limits
    }

    /// "10 s", "2.5 s": a limit as the notes say it.
    package static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        if fraction == 0 { return "\(whole) s" }
        return String(format: "%.1f s", Double(whole) + Double(fraction) / 1e18)
    }
}

/// The connections a server has open per client address, shared by its connections' handlers.
package final class ConnectionCounts: Sendable {
    private let counts = Locked<[String: Int]>([:])
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a connection from `address`; false (and not counted) when that address has `limit` open.
    func take(_ address: String) -> Bool {
        counts.withLock { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    /// A connection from `address` has closed.
    func release(_ address: String) {
        counts.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }
}

/// The request clock of one connection, first in its pipeline, where the bytes come before any
/// decoding: it starts at the first byte of a request (so that a request line or headers sent slowly
/// count too) and, when `RequestLimits` has not stopped it at the request's end, closes the connection.
final class RequestClock: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: Duration) {
        self.limit = .nanoseconds(
            Int64(limit.components.seconds) * 1_000_000_000
                + limit.components.attoseconds / 1_000_000_000)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        start(on: context.channel)
        context.fireChannelRead(data)
    }

    /// Starts the clock, unless a request's is running.
    func start(on channel: any Channel) {
        guard deadline == nil else { return }
        deadline = channel.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    /// The request has ended: the connection may wait for the next (the idle timeout's business).
    func stop() {
        deadline?.cancel()
        deadline = nil
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }
}

/// What Hummingbird's HTTP/1.1 channel gets of ours, after its decoder: the connections from one
/// address counted (one beyond the limit is closed at once), each request's clock stopped at its end
/// (`RequestClock`), and a connection whose response is written before its request has been read
/// whole (a 401 for a missing token, a 413 for an offer too large) closed after the response, rather
/// than read to the end of a body that nobody wants and a slow client may never finish.
final class RequestLimits: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let counts: ConnectionCounts
    private let clock: RequestClock
    private var counted: String?
    private var requestOpen = false

    init(counts: ConnectionCounts, requestTime: Duration) {
        self.counts = counts
        clock = RequestClock(limit: requestTime)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? ""
        guard counts.take(address) else {
            context.close(promise: nil)
            return
        }
        counted = address
        try? context.pipeline.syncOperations.addHandler(clock, position: .first)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    private func release() {
        if let counted { counts.release(counted) }
        counted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestOpen = true
            clock.start(on: context.channel)
        case .body: break
        case .end:
            requestOpen = false
            clock.stop()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), requestOpen else {
            context.write(data, promise: promise)
            return
        }
        context.writeAndFlush(data, promise: promise)
        context.close(promise: nil)
    }
}

@available(*, unavailable, message: "a channel handler lives on its channel's event loop")
extension RequestLimits: Sendable {}

@available(*, unavailable, message: "a channel handler lives on its channel's event loop")
extension RequestClock: Sendable {}
