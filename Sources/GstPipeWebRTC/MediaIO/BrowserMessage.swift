import Foundation

/// A message a browser sent over its data channel to ``BrowserViewers`` or ``BrowserPublisher``: what
/// the page's `window.gstpipe.send(...)` sent, text or binary, and which browser sent it.
///
/// ```swift
/// for await message in viewers.messages {
///     if case .text(let text) = message.content { viewers.send(.text("you said \(text)"), to: message.peer) }
/// }
/// ```
public struct BrowserMessage: Sendable, Equatable {
    /// What a message holds, as the page sent it.
    public enum Content: Sendable, Equatable {
        /// A JavaScript string.
        case text(String)
        /// An `ArrayBuffer`, a typed array or a `Blob`, as bytes.
        case binary(Data)
    }

    /// The browser that sent it: its session's id, the last part of its WHEP or WHIP resource's URL
    /// (the `Location` of its POST), which ``BrowserViewers/send(_:to:)`` takes to answer it alone.
    public let peer: String
    /// The text or the bytes.
    public let content: Content

    /// A message from `peer`.
    ///
    /// - Parameters:
    ///   - peer: The sending browser's session id.
    ///   - content: The text or the bytes it sent.
    public init(peer: String, content: Content) {
        (self.peer, self.content) = (peer, content)
    }
}

/// The messages browsers send, in the order they arrive, until the server is closed. One consumer
/// reads them; the newest 1024 wait while nobody does (older ones are dropped).
public typealias BrowserMessages = AsyncStream<BrowserMessage>
