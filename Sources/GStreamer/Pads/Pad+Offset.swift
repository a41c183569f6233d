import CGStreamer

extension Pad {
    /// How far the running time of what passes this pad is moved, in nanoseconds: a segment event
    /// leaving it is shifted by this much (`gst_segment_offset_running_time`), so a stream read
    /// from zero can be placed later in a pipeline's timeline without touching its buffers.
    ///
    /// The corresponding C functions are `gst_pad_get_offset` and `gst_pad_set_offset`.
    public var offset: Int64 {
        get { Int64(gst_pad_get_offset(pointer)) }
        set { gst_pad_set_offset(pointer, gint64(newValue)) }
    }
}
