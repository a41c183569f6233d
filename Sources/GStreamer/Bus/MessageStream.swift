import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// The bus messages of a pipeline, as an AsyncSequence (`Pipeline.messages`). A sequence subscribes
/// when it is made: it gets every message posted from then on, and each sequence gets them all, so any
/// number of tasks can read at once. Cancelling a reader's task ends that reader's iteration only.
///
/// Each reader buffers up to `capacity` unread messages; past that it forgets the oldest ones, except
/// errors and end of stream, which are never dropped. Messages are converted to `Message` when read,
/// not on the thread that posted them. The sequence finishes when the pipeline is released.
public struct MessageStream: AsyncSequence, Sendable {
    /// Each element of the sequence is a message, converted when read.
    public typealias Element = Message
    private let subscription: Subscription

    init(router: BusRouter, capacity: Int) {
        subscription = Subscription(router: router, capacity: capacity)
    }

    /// Keeps the subscriber alive while a sequence or an iterator holds it; unsubscribes after.
    final class Subscription: Sendable {
        let router: BusRouter
        let subscriber: Subscriber
        let capacity: Int
        private let iterated = Atomic(false)

        init(router: BusRouter, capacity: Int) {
            self.router = router
            self.capacity = capacity
            subscriber = router.subscribe(capacity: capacity)
        }

        deinit { router.unsubscribe(subscriber) }

        /// This subscription for its first iterator; a fresh one (from now on) for any later iterator.
        func forIterator() -> Subscription {
            iterated.exchange(true, ordering: .relaxed) ? Subscription(router: router, capacity: capacity) : self
        }
    }

    /// Reads one subscriber's messages in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The next message, waiting for one without blocking a thread.
        ///
        /// - Returns: The message, or nil once the pipeline is released or the task is cancelled.
        public mutating func next() async -> Message? {
            await subscription.subscriber.next()?.message
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

/// One reader's queue of messages: bounded, never dropping errors or end of stream.
final class Subscriber: Sendable {
    private struct Queue: ~Copyable {
        var items: [PostedMessage] = []
        var head = 0
        var waiter: CheckedContinuation<PostedMessage?, Never>?
        var finished = false

        var count: Int { items.count - head }

        mutating func popFirst() -> PostedMessage? {
            guard head < items.count else { return nil }
            let item = items[head]
            dropFirst()
            return item
        }

        mutating func dropFirst() {
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
    }

    private let queue = Locked(Queue())
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
    }

    /// Errors and end of stream are what a reader must see; anything else may go under pressure.
    private static func isCritical(_ message: PostedMessage) -> Bool {
        message.type == GST_MESSAGE_ERROR || message.type == GST_MESSAGE_EOS
    }

    /// Queues `message`, or hands it to the reader waiting for one.
    func enqueue(_ message: PostedMessage) {
        let waiter: CheckedContinuation<PostedMessage?, Never>? = queue.withLock { queue in
            guard !queue.finished else { return nil }
            if let waiter = queue.waiter {
                queue.waiter = nil
                return waiter
            }
            if queue.count >= capacity {
                // Forget the oldest message that is neither an error nor end of stream; should every
                // one be such, keep them all (and the new one).
                if let index = queue.items[queue.head...].firstIndex(where: { !Subscriber.isCritical($0) }) {
                    if index == queue.head { queue.dropFirst() } else { queue.items.remove(at: index) }
                } else if !Subscriber.isCritical(message) {
                    return nil
                }
            }
            queue.items.append(message)
            return nil
        }
        guard let waiter else { return }
        // TSan does not see a continuation's resume order what follows it (the Swift runtime's atomics
        // are not instrumented); `next()` receives the message this thread made.
        HandOver.published(Unmanaged.passUnretained(self).toOpaque())
        waiter.resume(returning: message)
    }

    /// The next message; nil once finished (after the queue is read) or when the reading task is cancelled.
    func next() async -> PostedMessage? {
        defer { HandOver.received(Unmanaged.passUnretained(self).toOpaque()) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PostedMessage?, Never>) in
                let ready: PostedMessage?? = queue.withLock { queue in
                    if let item = queue.popFirst() { return .some(item) }
                    if queue.finished || Task.isCancelled {
                        queue.finished = true
                        return .some(nil)
                    }
                    queue.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // This reader stops; the others read on.
            cancel()
        }
    }

    private func cancel() {
        let waiter = queue.withLock { queue in
            queue.finished = true
            queue.items.removeAll()
            queue.head = 0
            defer { queue.waiter = nil }
            return queue.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// No more messages: the reader gets what is queued, then nil.
    func finish() {
        let waiter = queue.withLock { queue in
            queue.finished = true
            defer { queue.waiter = nil }
            return queue.waiter
        }
        waiter?.resume(returning: nil)
    }
}
