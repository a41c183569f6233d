#if GSTPIPE_TSAN
import GStreamer

// See Sources/GStreamer/ThreadSanitizerMutex.swift: a lock ThreadSanitizer can see, in TSan builds only.
typealias Mutex = ThreadSanitizerMutex
#endif
