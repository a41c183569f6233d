import Synchronization

/// The number of buffers that passed a pad (`Pad.countBuffers()`), safe to read from any thread.
package final class BufferCounter: Sendable {
    private let storage = Atomic<Int>(0)
    private let lastTimestampStorage = Atomic<UInt64>(.max)
    private let lastEndStorage = Atomic<UInt64>(.max)

    /// Buffers counted so far.
    package var count: Int { storage.load(ordering: .relaxed) }

    /// The presentation timestamp of the last buffer that had one.
    package var lastTimestamp: ClockTime? {
        let value = lastTimestampStorage.load(ordering: .relaxed)
        return value == .max ? nil : value
    }

    /// Where the last buffer with a timestamp ends: its timestamp plus its duration, when it has one.
    package var lastEnd: ClockTime? {
        let value = lastEndStorage.load(ordering: .relaxed)
        return value == .max ? nil : value
    }

    func add(_ buffers: Int, timestamp: ClockTime?, duration: ClockTime?) {
        storage.add(buffers, ordering: .relaxed)
        if let timestamp {
            lastTimestampStorage.store(timestamp, ordering: .relaxed)
            lastEndStorage.store(timestamp + (duration ?? 0), ordering: .relaxed)
        }
    }
}

/// Whether end of stream has reached a pad (`Pad.watchEndOfStream()`), safe to read from any thread.
package final class EndOfStreamWatch: Sendable {
    private let arrived = Atomic(false)

    /// True once end of stream has passed the pad.
    package var hasArrived: Bool { arrived.load(ordering: .acquiring) }

    func arrive() {
        arrived.store(true, ordering: .releasing)
    }

    /// Waits until end of stream arrives or `timeout` passes; true when it arrived. (Polls: it is
    /// for the end of a run, not for a streaming path.)
    ///
    /// - Parameter timeout: The longest to wait.
    /// - Returns: Whether end of stream arrived.
    package func wait(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !hasArrived && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return hasArrived
    }
}
