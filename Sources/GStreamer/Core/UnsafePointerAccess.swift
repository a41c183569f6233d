import CGStreamer

// The escape hatch for C interop: where the wrappers fall short, the C object itself, for the length
// of a closure (`import CGStreamer` for GStreamer's C API). The wrapper keeps the object alive
// meanwhile; the pointer must not escape the closure (take a reference with gst_object_ref, or
// gst_mini_object_ref, to keep it longer). Follow GStreamer's rules: change a buffer's metadata only
// when gst_buffer_is_writable says so (the Swift setters copy a shared buffer first).

extension Element {
    /// Calls `body` with the underlying GstElement, for C interop.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstElement>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

extension Pad {
    /// Calls `body` with the underlying GstPad, for C interop.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstPad>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

extension Buffer {
    /// Calls `body` with the underlying GstBuffer, for C interop. It may be shared: write to it only
    /// when `isWritable`.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstBuffer>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withPointer(body)
    }
}

extension Caps {
    /// Calls `body` with the underlying GstCaps, for C interop. Caps wrappers never write to their
    /// caps, and neither may `body`.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstCaps>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

extension Event {
    /// Calls `body` with the underlying GstEvent, for C interop (read only: events are immutable once
    /// made).
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstEvent>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}
