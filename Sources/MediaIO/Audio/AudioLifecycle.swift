/// The lifecycle a MediaIO audio source, sink or filter goes through: the same calls, in the same
/// order, as for video (``MediaIOLifecycle``).
public protocol AudioLifecycle: MediaIOLifecycle {}
