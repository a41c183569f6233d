// A buffer over bytes the application owns: GStreamer reads them where they are (no copy) and hands
// them back when it is done with them, so they are freed once, after the last element let go.
import GStreamer
import Synchronization

let released = Atomic(false)
do {
    let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 48, alignment: 16)
    frame.initializeMemory(as: UInt8.self, repeating: 0x80)
    let buffer = try Buffer(wrapping: frame, readOnly: true) { bytes in
        bytes.deallocate()
        released.store(true, ordering: .releasing)
    }
    buffer.pts = 0

    let pipeline = try Pipeline(
        launch: "appsrc name=src format=time caps=video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1 "
            + "! identity ! appsink name=sink")
    let source = try pipeline.appSrc(named: "src")
    try pipeline.play()
    _ = source.push(buffer)
    _ = source.endOfStream()
    let received = try await pipeline.appSink(named: "sink").nextSample(timeout: .seconds(10))?.buffer
    let sameBytes = received?.memoryAddress == UnsafeRawPointer(frame.baseAddress)
    print("the appsink got the application's bytes, not a copy: \(sameBytes)")
    // snippet.hide
    precondition(sameBytes && received?.bytes.first == 0x80, "the appsink got a copy of the wrapped bytes, or none")
    // snippet.show
    pipeline.stop()
}
// snippet.hide
// The pipeline lets its last references go as it winds down, perhaps on another thread.
for _ in 0..<500 where !released.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
// snippet.show
print("released: \(released.load(ordering: .acquiring))")
// snippet.hide
precondition(released.load(ordering: .acquiring), "the wrapped bytes were never released")
