import GstPipeSupport

/// Which threads are running a Swift handler GStreamer called: a signal handler (webrtcbin's and
/// libnice's come on their own threads, not GstTask threads, so no stream-status message marks them),
/// a pad probe. Bringing a pipeline down to READY or NULL from such a thread may have GStreamer join the
/// very thread it runs on, a deadlock: `Pipeline` hands that change to another thread.
enum CallbackThread {
    /// How deep each thread is in handlers now (a handler can emit a signal whose handler runs inside it).
    private static let depths = Locked<[UInt: Int]>([:])

    /// Runs `body`, a Swift handler GStreamer called, with the calling thread marked.
    static func during<T>(_ body: () -> T) -> T {
        let thread = currentThreadID
        depths.withLock { $0[thread, default: 0] += 1 }
        defer {
            depths.withLock { depths in
                let depth = (depths[thread] ?? 1) - 1
                depths[thread] = depth == 0 ? nil : depth
            }
        }
        return body()
    }

    /// True inside a Swift handler GStreamer called.
    static var isInside: Bool {
        let thread = currentThreadID
        return depths.withLock { $0[thread] != nil }
    }
}
