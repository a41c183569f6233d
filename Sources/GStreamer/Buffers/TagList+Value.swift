import CGStreamer

extension Value {
    /// The tag list, when the value is a non-NULL `GstTagList` (what playbin's `get-audio-tags` and
    /// `get-video-tags` action signals return), with a reference of its own.
    public var tagList: TagList? {
        let gvalue = UnsafePointer(storage.gvalue)
        guard gvalue.pointee.g_type == gst_tag_list_get_type(), let list = g_value_get_boxed(gvalue) else {
            return nil
        }
        return TagList(borrowing: UnsafeMutableRawPointer(mutating: list).assumingMemoryBound(to: GstTagList.self))
    }
}
