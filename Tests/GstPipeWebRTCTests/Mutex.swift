import GstPipeSupport

// Synchronization's Mutex, or under -DGSTPIPE_TSAN a lock ThreadSanitizer sees: Sources/GstPipeSupport/Mutex.swift.
typealias Mutex = GstPipeSupport.Mutex
