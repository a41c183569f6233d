import CGStreamer
import CGStreamerShim

// The allocation query: once the formats are agreed, an element asks downstream where its buffers
// should come from (a pool downstream offers, of what size and count) and which metas downstream
// understands (a video meta lets buffers carry padded strides).
extension Query {
    /// A buffer pool offered in an allocation query's answer.
    public struct AllocationPool: Sendable, Equatable {
        /// The GObject type name of the pool offered (`GstVideoBufferPool`, `GstBufferPool`); nil when the
        /// answer gives sizes only and leaves the asker to make its own pool.
        public var typeName: String?
        /// Each buffer's size in bytes.
        public var size: Int
        /// How many buffers the pool keeps at least.
        public var minBuffers: Int
        /// How many buffers it hands out at most; 0 for no limit.
        public var maxBuffers: Int

        /// A pool answer of `typeName` with buffers of `size` bytes, `minBuffers` to `maxBuffers` of them.
        ///
        /// - Parameters:
        ///   - typeName: The pool's GObject type name; nil for none.
        ///   - size: Each buffer's size in bytes.
        ///   - minBuffers: How many buffers the pool keeps at least.
        ///   - maxBuffers: How many it hands out at most; 0 for no limit.
        public init(typeName: String?, size: Int, minBuffers: Int, maxBuffers: Int) {
            self.typeName = typeName
            self.size = size
            self.minBuffers = minBuffers
            self.maxBuffers = maxBuffers
        }
    }

    /// Asks downstream how to allocate buffers of `caps`: which pools it offers and which metas it
    /// understands. An element asks it after the caps are agreed (in its `decide_allocation`).
    ///
    /// The corresponding C function is `gst_query_new_allocation`.
    ///
    /// - Parameters:
    ///   - caps: The format the buffers will hold.
    ///   - needPool: True when the asker wants a pool offered, not sizes alone.
    /// - Returns: A new allocation query, to pass to ``Pad/peerQuery(_:)`` (or a sink pad's ``Pad/query(_:)``).
    public static func allocation(caps: Caps?, needPool: Bool) -> Query {
        Query(taking: gst_query_new_allocation(caps?.pointer, needPool ? 1 : 0))
    }

    /// An allocation query's question: the caps asked for and whether a pool is wanted. Nil for another
    /// kind of query.
    ///
    /// The corresponding C function is `gst_query_parse_allocation`.
    public var allocation: (caps: Caps?, needPool: Bool)? {
        whenType(GST_QUERY_ALLOCATION) { query -> (Caps?, Bool)? in
            var caps: UnsafeMutablePointer<GstCaps>?
            var needPool: gboolean = 0
            gst_query_parse_allocation(query, &caps, &needPool)
            return (caps.map { Caps(borrowing: $0) }, needPool != 0)
        }
    }

    /// The pools an allocation query's answer offers, best first (empty when none, or not an allocation
    /// query).
    ///
    /// The corresponding C functions are `gst_query_get_n_allocation_pools` and
    /// `gst_query_parse_nth_allocation_pool`.
    public var allocationPools: [AllocationPool] {
        whenType(GST_QUERY_ALLOCATION) { query in
            (0..<gst_query_get_n_allocation_pools(query)).map { index in
                var pool: UnsafeMutablePointer<GstBufferPool>?
                var size: guint = 0
                var minimum: guint = 0
                var maximum: guint = 0
                gst_query_parse_nth_allocation_pool(query, index, &pool, &size, &minimum, &maximum)
                defer { pool.map { gst_object_unref($0) } }
                // G_OBJECT_TYPE_NAME, a macro: the type of the instance's class.
                let typeName = pool.flatMap { $0.pointee.object.object.g_type_instance.g_class }
                    .flatMap { g_type_name($0.pointee.g_type) }.map { String(cString: $0) }
                return AllocationPool(
                    typeName: typeName, size: Int(size), minBuffers: Int(minimum), maxBuffers: Int(maximum))
            }
        } ?? []
    }

    /// The metas an allocation query's answer says downstream understands, by API type name
    /// (`GstVideoMetaAPI`, `GstVideoCropMetaAPI`, ...); empty when none, or not an allocation query.
    ///
    /// The corresponding C functions are `gst_query_get_n_allocation_metas` and
    /// `gst_query_parse_nth_allocation_meta`.
    public var allocationMetas: [String] {
        whenType(GST_QUERY_ALLOCATION) { query in
            (0..<gst_query_get_n_allocation_metas(query)).map { index in
                String(cString: g_type_name(gst_query_parse_nth_allocation_meta(query, index, nil)))
            }
        } ?? []
    }

    /// Answers an allocation query (in a probe that returns `.handled`, or before passing it on) by
    /// offering `pool`, or sizes alone when it is nil.
    ///
    /// The corresponding C function is `gst_query_add_allocation_pool`.
    ///
    /// - Parameters:
    ///   - pool: The pool offered; nil to give the sizes and counts only.
    ///   - size: Each buffer's size in bytes.
    ///   - minBuffers: How many buffers the asker should keep at least.
    ///   - maxBuffers: How many it may have out at most; 0 for no limit.
    /// - Returns: False when this is not an allocation query, it cannot be answered here, or a number is
    ///   negative or too large.
    @discardableResult
    public func addAllocationPool(_ pool: BufferPool?, size: Int, minBuffers: Int = 0, maxBuffers: Int = 0) -> Bool {
        guard let size = guint(exactly: size), let minimum = guint(exactly: minBuffers),
            let maximum = guint(exactly: maxBuffers)
        else { return false }
        return answerWhenType(GST_QUERY_ALLOCATION) { query in
            gst_query_add_allocation_pool(query, pool?.pointer, size, minimum, maximum)
            return true
        }
    }

    /// Answers an allocation query by saying downstream understands the meta API named `api`
    /// (`GstVideoMetaAPI`): the asker may then attach it rather than copy into a plain layout.
    ///
    /// The corresponding C function is `gst_query_add_allocation_meta`.
    ///
    /// - Parameter api: The meta API's GType name; it must be registered (a library using it is loaded).
    /// - Returns: False when this is not an allocation query, it cannot be answered here, or no meta API
    ///   of that name is registered.
    @discardableResult
    public func addAllocationMeta(_ api: String) -> Bool {
        let type = g_type_from_name(api)
        guard type != 0 else { return false }
        return answerWhenType(GST_QUERY_ALLOCATION) { query in
            gst_query_add_allocation_meta(query, type, nil)
            return true
        }
    }
}
