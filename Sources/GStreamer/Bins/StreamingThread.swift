/// A thread running one of a pipeline's streaming tasks (a source's loop, a queue's output, a demuxer
/// pulling its input), from the moment it enters the task until it leaves it.
///
/// A pipeline brought to NULL has none: its tasks were stopped and their threads went back to GLib's
/// pool. A pipeline that still lists threads after `stop()` returned, or after it was released, is still
/// running somewhere.
public struct StreamingThread: Sendable, Hashable {
    /// The thread's id in the kernel (`gettid`): its entry in `/proc/self/task`, as gdb and `top -H` show it.
    public let id: Int
    /// The name of the element whose task it runs (the pad's owner).
    public let element: String
}
