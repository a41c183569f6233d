import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// A GStreamer buffer: memory plus timestamps. Owns one reference.
///
/// Setting a timestamp or flag on a buffer that others hold too (a pipeline, a sample, another
/// wrapper) first gives this wrapper a copy of its own, as a Swift value would: the metadata is
/// copied, the memory is shared (no bytes are copied), and the others keep seeing the old values.
///
/// GstBuffer is reference counted and immutable while shared, so the wrapper can cross threads: it
/// writes only into a buffer it holds alone, under its lock (the setters, copying first when the
/// buffer is shared) or through `withMutableBytes`, which requires a writable buffer.
public final class Buffer: @unchecked Sendable {
    /// The GstBuffer held now (its address). A setter that finds it shared replaces it with its copy.
    private let current: Atomic<UInt>
    /// Buffers replaced by copies, each still referenced: a pointer another thread read before the
    /// replacement stays valid as long as the wrapper. Guards every write to `current`'s metadata.
    private let replaced = Mutex<[UInt]>([])

    /// The GstBuffer the wrapper holds now; valid as long as the wrapper.
    var pointer: UnsafeMutablePointer<GstBuffer> {
        UnsafeMutablePointer(bitPattern: current.load(ordering: .acquiring))!
    }

    init(taking pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: pointer))
    }

    init(borrowing pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: gst_buffer_ref(pointer)))
    }

    deinit {
        gst_buffer_unref(pointer)
        for old in replaced.withLock({ $0 }) {
            gst_buffer_unref(UnsafeMutablePointer(bitPattern: old))
        }
    }

    /// Reads the buffer's metadata, in step with `modify` on another thread.
    private func read<T>(_ body: (UnsafeMutablePointer<GstBuffer>) -> T) -> T {
        replaced.withLock { _ in
            let buffer = pointer
            // What another wrapper wrote before the buffer went through GStreamer (see `modify`).
            HandOver.received(buffer)
            return body(buffer)
        }
    }

    /// Changes the buffer's metadata in place when the wrapper holds it alone, else in a copy (same
    /// memory, new metadata) that the wrapper holds from then on.
    ///
    /// The corresponding C function is `gst_buffer_make_writable` (a macro).
    private func modify(_ change: (UnsafeMutablePointer<GstBuffer>) -> Void) {
        replaced.withLock { replaced in
            let buffer = pointer
            HandOver.received(buffer)
            if CGStreamerShim_buffer_is_writable(buffer) != 0 {
                change(buffer)
                // Another thread reads these fields only after the buffer went through GStreamer (a
                // queue, a pad), whose locks TSan does not see.
                HandOver.published(buffer)
                return
            }
            let copy = gst_buffer_copy(buffer)!
            change(copy)
            HandOver.published(copy)
            replaced.append(UInt(bitPattern: buffer))
            current.store(UInt(bitPattern: copy), ordering: .releasing)
        }
    }

    /// Changes the buffer's flags as `modify` changes its metadata: in place when the wrapper holds it
    /// alone, else in a copy.
    func modifyFlags(_ change: (inout guint) -> Void) {
        modify { change(&$0.pointee.mini_object.flags) }
    }

    /// A new buffer of `size` bytes (uninitialized).
    ///
    /// The corresponding C function is `gst_buffer_new_allocate`.
    ///
    /// - Parameter size: The size in bytes.
    /// - Throws: ``GStreamerError`` (core) when the memory cannot be allocated, or GStreamer cannot be
    ///   initialized.
    public convenience init(size: Int) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let buffer = gst_buffer_new_allocate(nil, gsize(size), nil) else {
            throw GStreamerError(kind: .core, message: "could not allocate a buffer of \(size) bytes")
        }
        self.init(taking: buffer)
    }

    /// A new buffer holding a copy of `bytes`.
    ///
    /// The corresponding C functions are `gst_buffer_new_allocate` and `gst_buffer_fill`.
    ///
    /// - Parameter bytes: The bytes to copy; the buffer's size is their count.
    /// - Throws: ``GStreamerError`` (core) when the memory cannot be allocated, or GStreamer cannot be
    ///   initialized.
    public convenience init(copying bytes: UnsafeRawBufferPointer) throws(GStreamerError) {
        try self.init(size: bytes.count)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            gst_buffer_fill(pointer, 0, base, gsize(bytes.count))
        }
    }

    /// Presentation timestamp in nanoseconds. Setting it on a shared buffer copies it first (see above).
    public var pts: ClockTime? {
        get { read { optionalClockTime($0.pointee.pts) } }
        set { modify { $0.pointee.pts = clockTimeValue(newValue) } }
    }

    /// Decoding timestamp in nanoseconds.
    public var dts: ClockTime? {
        get { read { optionalClockTime($0.pointee.dts) } }
        set { modify { $0.pointee.dts = clockTimeValue(newValue) } }
    }

    /// Duration in nanoseconds.
    public var duration: ClockTime? {
        get { read { optionalClockTime($0.pointee.duration) } }
        set { modify { $0.pointee.duration = clockTimeValue(newValue) } }
    }

    /// True when the buffer cannot be decoded on its own (an encoded frame that is not a key frame).
    ///
    /// The corresponding C flag is `GST_BUFFER_FLAG_DELTA_UNIT`.
    public var isDeltaUnit: Bool {
        get { read { $0.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0 } }
        set {
            modify { buffer in
                if newValue {
                    buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue
                } else {
                    buffer.pointee.mini_object.flags &= ~GST_BUFFER_FLAG_DELTA_UNIT.rawValue
                }
            }
        }
    }

    /// True when the buffer follows a gap or a flush (a seek): what came before it is not its past.
    ///
    /// The corresponding C flag is `GST_BUFFER_FLAG_DISCONT`.
    public var isDiscontinuity: Bool { read { $0.pointee.mini_object.flags & GST_BUFFER_FLAG_DISCONT.rawValue != 0 } }

    /// Total size in bytes of all its memory.
    ///
    /// The corresponding C function is `gst_buffer_get_size`.
    public var size: Int { Int(gst_buffer_get_size(pointer)) }

    /// Number of memory blocks.
    ///
    /// The corresponding C function is `gst_buffer_n_memory`.
    public var memoryCount: Int { Int(gst_buffer_n_memory(pointer)) }

    /// True when nobody else holds the buffer, so writing to it needs no copy.
    ///
    /// The corresponding C macro is `gst_buffer_is_writable`.
    public var isWritable: Bool { CGStreamerShim_buffer_is_writable(pointer) != 0 }

    /// True when both wrappers hold the very same GstBuffer.
    ///
    /// - Parameter other: Another wrapper.
    /// - Returns: Whether both wrap one GstBuffer (not merely equal bytes).
    public func isSameBuffer(as other: Buffer) -> Bool { pointer == other.pointer }

    /// The buffer's address, for identity checks in tests and logs only.
    package var identity: UInt { UInt(bitPattern: pointer) }

    /// Reads the whole buffer's bytes (mapped read-only for the duration of `body`).
    ///
    /// The corresponding C functions are `gst_buffer_map` and `gst_buffer_unmap`.
    ///
    /// - Parameter body: Reads the bytes; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be mapped, or what `body` throws.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var map = GstMapInfo()
        guard gst_buffer_map(pointer, &map, GST_MAP_READ) != 0 else {
            throw GStreamerError(kind: .core, message: "could not map a buffer for reading")
        }
        defer { gst_buffer_unmap(pointer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Writes the buffer's bytes. The buffer must be writable.
    ///
    /// The corresponding C functions are `gst_buffer_map` (with `GST_MAP_WRITE`) and `gst_buffer_unmap`.
    ///
    /// - Parameter body: Writes the bytes; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (invalid argument) when the buffer is shared (see ``isWritable``), (core)
    ///   when it cannot be mapped, or what `body` throws.
    public func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        guard isWritable else {
            throw GStreamerError(kind: .invalidArgument, message: "the buffer is shared and cannot be written")
        }
        var map = GstMapInfo()
        guard gst_buffer_map(pointer, &map, GST_MAP_WRITE) != 0 else {
            throw GStreamerError(kind: .core, message: "could not map a buffer for writing")
        }
        defer { gst_buffer_unmap(pointer, &map) }
        return try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// This buffer with these timestamps: itself when they already match or it is writable, else a
    /// shallow copy (new metadata, the same memory: no pixels are copied).
    ///
    /// The corresponding C function is `gst_buffer_copy` (not deep).
    ///
    /// - Parameters:
    ///   - pts: The presentation timestamp in nanoseconds, or nil for none.
    ///   - duration: The duration in nanoseconds, or nil for none.
    /// - Returns: A buffer with these timestamps and this buffer's memory.
    public func withTimestamps(pts: ClockTime?, duration: ClockTime?) -> Buffer {
        withTimestamps(pts: pts, duration: duration, discontinuity: nil)
    }

    /// `withTimestamps(pts:duration:)` that also sets or clears the discontinuity mark (nil leaves it):
    /// one lock and one writability check for all three, as a source's every buffer needs.
    package func withTimestamps(pts: ClockTime?, duration: ClockTime?, discontinuity: Bool?) -> Buffer {
        let (rawPTS, rawDuration) = (clockTimeValue(pts), clockTimeValue(duration))
        let discont = GST_BUFFER_FLAG_DISCONT.rawValue
        func matches(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
            buffer.pointee.pts == rawPTS && buffer.pointee.duration == rawDuration
                && discontinuity.map { ($0 ? discont : 0) == buffer.pointee.mini_object.flags & discont } ?? true
        }
        func change(_ buffer: UnsafeMutablePointer<GstBuffer>) {
            buffer.pointee.pts = rawPTS
            buffer.pointee.duration = rawDuration
            if let discontinuity {
                buffer.pointee.mini_object.flags = discontinuity
                    ? buffer.pointee.mini_object.flags | discont : buffer.pointee.mini_object.flags & ~discont
            }
        }
        let inPlace = replaced.withLock { _ in
            let buffer = pointer
            HandOver.received(buffer)
            if matches(buffer) { return true }
            guard CGStreamerShim_buffer_is_writable(buffer) != 0 else { return false }
            change(buffer)
            HandOver.published(buffer)
            return true
        }
        if inPlace { return self }
        let copy = gst_buffer_copy(pointer)!
        change(copy)
        HandOver.published(copy)
        return Buffer(taking: copy)
    }

    /// A new buffer over `size` bytes from `offset` of this one, sharing its memory (no copy).
    ///
    /// The corresponding C function is `gst_buffer_copy_region` (with GST_BUFFER_COPY_MEMORY only).
    ///
    /// - Parameters:
    ///   - offset: The first byte, from the start of this buffer.
    ///   - size: The number of bytes, at least 1.
    /// - Returns: The new buffer, or nil when the range is empty or runs past the end.
    public func region(offset: Int, size: Int) -> Buffer? {
        guard offset >= 0, size > 0, offset + size <= self.size,
            let copy = gst_buffer_copy_region(pointer, GST_BUFFER_COPY_MEMORY, gsize(offset), gsize(size))
        else { return nil }
        return Buffer(taking: copy)
    }

    /// A new buffer made of the memory blocks of `parts`, in order, shared (no copy).
    ///
    /// The corresponding C function is `gst_buffer_append_memory`.
    ///
    /// - Parameter parts: The buffers whose memory to take, in order; they are not changed.
    /// - Returns: A buffer whose size is the sum of the parts' sizes, without timestamps.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func concatenating(_ parts: [Buffer]) throws(GStreamerError) -> Buffer {
        try GStreamer.initialize()
        let buffer = gst_buffer_new()!
        for part in parts {
            for index in 0..<gst_buffer_n_memory(part.pointer) {
                gst_buffer_append_memory(buffer, gst_memory_ref(gst_buffer_peek_memory(part.pointer, index)))
            }
        }
        return Buffer(taking: buffer)
    }

    /// For each memory block, the address of the memory it was shared from (itself when not shared):
    /// equal roots mean the same bytes, so no copy was made.
    package var memoryRoots: [UInt] {
        (0..<gst_buffer_n_memory(pointer)).map { index in
            var memory = gst_buffer_peek_memory(pointer, index)!
            while let parent = memory.pointee.parent { memory = parent }
            return UInt(bitPattern: memory)
        }
    }

    /// True when the buffer came from a buffer pool (and goes back to it when released).
    package var isFromPool: Bool { pointer.pointee.pool != nil }

    /// The bytes as an array (a copy).
    public var bytes: [UInt8] {
        (try? withBytes { Array($0.bindMemory(to: UInt8.self)) }) ?? []
    }

    /// Adds a GstVideoMeta describing per-plane offsets and strides.
    ///
    /// The corresponding C function is `gst_buffer_add_video_meta_full`.
    ///
    /// - Parameter info: The layout to describe: format, size, and each plane's offset and stride in bytes.
    public func addVideoMeta(_ info: VideoInfo) {
        var offsets = info.raw.offset
        var strides = info.raw.stride
        withUnsafeMutableBytes(of: &offsets) { offsetBytes in
            withUnsafeMutableBytes(of: &strides) { strideBytes in
                _ = gst_buffer_add_video_meta_full(
                    pointer, GST_VIDEO_FRAME_FLAG_NONE, info.raw.finfo.pointee.format, guint(info.width),
                    guint(info.height), guint(info.planeCount), offsetBytes.baseAddress!.assumingMemoryBound(to: gsize.self),
                    strideBytes.baseAddress!.assumingMemoryBound(to: gint.self))
            }
        }
    }

    /// The plane layout from the buffer's GstVideoMeta, when it has one.
    ///
    /// The corresponding C function is `gst_buffer_get_video_meta`.
    public var videoMetaLayout: (offsets: [Int], strides: [Int])? {
        guard let meta = gst_buffer_get_video_meta(pointer) else { return nil }
        let planes = Int(meta.pointee.n_planes)
        let offsets = withUnsafeBytes(of: meta.pointee.offset) { Array($0.bindMemory(to: gsize.self).prefix(planes)) }
        let strides = withUnsafeBytes(of: meta.pointee.stride) { Array($0.bindMemory(to: gint.self).prefix(planes)) }
        return (offsets.map { Int($0) }, strides.map { Int($0) })
    }
}

/// A buffer with the caps and segment it was received with, as an appsink hands it out.
public final class Sample: @unchecked Sendable {
    // GstSample is reference counted and immutable; this wrapper owns one reference.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        gst_sample_unref(pointer)
    }

    /// A sample of `buffer` with `caps` and the segment of `segmentFrom` (or a default time segment).
    ///
    /// With an `offset`, the segment is moved later by that much (start, stop and position), so that
    /// timestamps moved by the same offset keep their running and stream times. An encoder does this
    /// to give B-frames' decoding timestamps, which come before the first presentation timestamp,
    /// room above zero (as GstVideoEncoder does for x264enc).
    ///
    /// The corresponding C function is `gst_sample_new`.
    ///
    /// - Parameters:
    ///   - buffer: The sample's buffer; the sample takes its own reference.
    ///   - caps: The buffer's caps, or nil.
    ///   - other: The sample whose segment to copy, or nil for a default time segment.
    ///   - offset: Nanoseconds to move the copied segment later.
    public convenience init(buffer: Buffer, caps: Caps?, segmentFrom other: Sample? = nil, offset: ClockTime = 0) {
        guard let source = other.flatMap({ gst_sample_get_segment($0.pointer) }) else {
            self.init(taking: gst_sample_new(buffer.pointer, caps?.pointer, nil, nil))
            return
        }
        var segment = source.pointee
        if offset != 0 {
            segment.start += guint64(offset)
            if segment.stop != guint64.max { segment.stop += guint64(offset) }
            if segment.position != guint64.max { segment.position += guint64(offset) }
        }
        self.init(taking: gst_sample_new(buffer.pointer, caps?.pointer, &segment, nil))
    }

    /// The sample's buffer.
    ///
    /// The corresponding C function is `gst_sample_get_buffer`.
    public var buffer: Buffer? {
        gst_sample_get_buffer(pointer).map { Buffer(borrowing: $0) }
    }

    /// The caps the buffer came with.
    ///
    /// The corresponding C function is `gst_sample_get_caps`.
    public var caps: Caps? {
        gst_sample_get_caps(pointer).map { Caps(borrowing: $0) }
    }

    /// The segment's start, rate and base, in nanoseconds for time segments.
    ///
    /// The corresponding C function is `gst_sample_get_segment`.
    public var segment: Segment? {
        gst_sample_get_segment(pointer).map { Segment($0.pointee) }
    }
}

/// The part of a stream being played: a GstSegment in time format.
public struct Segment: Sendable, Equatable {
    /// The playback rate: 1 for normal speed, negative for reverse.
    public var rate: Double
    /// The first timestamp of the segment, in nanoseconds; buffers before it are clipped.
    public var start: ClockTime
    /// The last timestamp, in nanoseconds, or nil for open-ended.
    public var stop: ClockTime?
    /// The running time, in nanoseconds, that the segment's start maps to (the time of earlier segments).
    public var base: ClockTime
    /// The stream time, in nanoseconds, of the segment's start (what a position query reports there).
    public var time: ClockTime
    /// The last position reached in the segment, in nanoseconds, when known.
    public var position: ClockTime?

    init(_ segment: GstSegment) {
        rate = segment.rate
        start = ClockTime(segment.start)
        stop = optionalClockTime(segment.stop)
        base = ClockTime(segment.base)
        time = ClockTime(segment.time)
        position = optionalClockTime(segment.position)
    }
}

extension Buffer {
    /// A new buffer holding a copy of `bytes`, stamped with `pts` and `duration`.
    ///
    /// The corresponding C functions are `gst_buffer_new_allocate` and `gst_buffer_fill`.
    ///
    /// - Parameters:
    ///   - bytes: The content, copied.
    ///   - pts: The presentation timestamp in nanoseconds; nil for none.
    ///   - duration: The duration in nanoseconds; nil for none.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be allocated.
    public convenience init(
        bytes: some Collection<UInt8>, pts: ClockTime? = nil, duration: ClockTime? = nil
    ) throws(GStreamerError) {
        try self.init(size: bytes.count)
        let fill = { [pointer] (storage: UnsafeBufferPointer<UInt8>) in
            _ = gst_buffer_fill(pointer, 0, storage.baseAddress, gsize(storage.count))
        }
        if bytes.withContiguousStorageIfAvailable(fill) == nil {
            Array(bytes).withUnsafeBufferPointer(fill)
        }
        self.pts = pts
        self.duration = duration
    }
}
