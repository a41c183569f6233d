import Foundation
import GStreamer
import GStreamerWebRTC
import GstPipeSupport
import Synchronization

/// The data channels of one server's browsers (`BrowserViewers`' viewers, `BrowserPublisher`'s
/// publisher): each page opens one (`gstpipe`, before its offer, so the offer has an `m=application`
/// section and webrtcbin answers it), webrtcbin hands it over once the connection is up, and from then
/// on its messages go into `messages`, named by the peer's session id, and `send` reaches it.
package final class BrowserChannels: Sendable {
    /// Messages kept while nobody reads `messages`; older ones are dropped beyond it, so that a server
    /// whose user never reads them does not grow without bound.
    package static let bufferLimit = 1024

    /// Every peer's messages.
    package let messages: BrowserMessages
    private let continuation: BrowserMessages.Continuation
    private let channels = Locked<[String: DataChannel]>([:])

    package init() {
        (messages, continuation) = BrowserMessages.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
    }

    /// Takes the data channel the peer `peer` opens on `webrtcbin`: call before its offer is answered.
    package func attach(to webrtcbin: Element, peer: String) {
        guard let bin = try? WebRTCBin(webrtcbin) else { return }
        let continuation = continuation
        bin.onDataChannel { [weak self] channel in
            channel.onMessage { message in
                switch message {
                case .text(let text): continuation.yield(BrowserMessage(peer: peer, content: .text(text)))
                case .binary(let bytes): continuation.yield(BrowserMessage(peer: peer, content: .binary(Data(bytes))))
                }
            }
            // The last one the peer opened is the one sent on (a page opens one).
            self?.channels.withLock { $0[peer] = channel }
        }
    }

    /// Forgets `peer`'s channel: it has left.
    package func detach(_ peer: String) {
        _ = channels.withLock { $0.removeValue(forKey: peer) }
    }

    /// The peers whose channel is open now.
    package var peers: [String] {
        channels.withLock { $0.filter { $0.value.state == .open }.map(\.key) }.sorted()
    }

    /// Sends `content` to `peer`, or to every peer with an open channel when nil; returns how many it
    /// reached (a peer whose channel is not open yet, or has closed, is not counted).
    @discardableResult
    package func send(_ content: BrowserMessage.Content, to peer: String?) -> Int {
        let targets = channels.withLock { channels in
            peer.map { channels[$0].map { [$0] } ?? [] } ?? Array(channels.values)
        }
        let message: DataChannel.Message =
            switch content {
            case .text(let text): .text(text)
            case .binary(let data): .binary(Array(data))
            }
        return targets.filter { (try? $0.send(message)) != nil }.count
    }

    /// Ends `messages` and forgets every channel: the server has closed.
    package func finish() {
        channels.withLock { $0.removeAll() }
        continuation.finish()
    }
}
