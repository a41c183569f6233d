/// The bus messages of a pipeline as they were posted (`Pipeline.postedMessages`): each a
/// ``PostedMessage``, whose `message` is the converted ``Message`` and whose `sourceElement` is the element
/// that posted it, for a reader that acts on that element (sets its state, reads its properties) rather
/// than finding it again by name. Subscribes, buffers and finishes as ``MessageStream`` does.
public struct PostedMessageStream: AsyncSequence, Sendable {
    /// Each element of the sequence is a message as posted, with its source.
    public typealias Element = PostedMessage
    private let subscription: MessageStream.Subscription

    init(router: BusRouter, capacity: Int) {
        subscription = MessageStream.Subscription(router: router, capacity: capacity)
    }

    /// Reads one subscriber's messages in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: MessageStream.Subscription

        /// The next message, waiting for one without blocking a thread.
        ///
        /// - Returns: The message, or nil once the pipeline is released or the task is cancelled.
        public mutating func next() async -> PostedMessage? {
            await subscription.subscriber.next()
        }
    }

    /// An iterator over the messages: the first one made reads from when the sequence was made, any later
    /// one from when it is made.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: subscription.forIterator())
    }
}
