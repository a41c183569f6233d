// A pool of frame buffers reused instead of allocated per frame: a buffer goes back to the pool when
// its last reference is dropped, and the next acquire hands out the same memory.
import GStreamer

let pool = try BufferPool(
    caps: try Caps("video/x-raw,format=GRAY8,width=64,height=48"), size: 64 * 48,
    minBuffers: 2, maxBuffers: 2)
var first = try pool.acquire()
let second = try pool.acquire()
let third = try pool.acquire(wait: false)
print("two out of two taken; a third without waiting: \(third == nil ? "none free" : "got one")")
let address = first?.memoryAddress
first = nil
let again = try pool.acquire(wait: false)
print("after one came back: \(again == nil ? "none" : "a buffer"), same memory: \(again?.memoryAddress == address)")
// snippet.hide
precondition(second != nil && third == nil, "the pool handed out more than its two buffers")
precondition(again != nil && again?.memoryAddress == address, "the returned buffer was not reused")
precondition(again?.size == 64 * 48 && pool.isActive, "a pooled buffer of the wrong size")
