import Foundation
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// Memory wrapping the application's bytes, reference timestamps, custom metas and buffer pools.
@Suite("Wrapped memory, metas and buffer pools", .bounded)
struct BufferFamilyTests {
    /// Pushes `buffer` through `identity` into an appsink and returns what comes out.
    static func throughIdentity(_ buffer: Buffer) async throws -> Buffer? {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! identity ! appsink name=out sync=false")
        let source = try pipeline.appSrc(named: "src")
        let sink = try pipeline.appSink(named: "out")
        try pipeline.play()
        await #expect(source.push(buffer) == .ok)
        source.endOfStream()
        let sample = await sink.nextSample(timeout: .seconds(30))
        pipeline.stop()
        return sample?.buffer
    }

    @Test("A wrapped buffer is read in place, and its release runs once when GStreamer is done")
    func wrappedMemory() async throws {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        for index in 0..<bytes.count { bytes[index] = UInt8(index % 251) }
        let releases = Atomic(0)
        do {
            let buffer = try Buffer(wrapping: bytes) { releases.add(1, ordering: .relaxed) }
            #expect(buffer.memoryAddress == UnsafeRawPointer(bytes.baseAddress!), "not copied")
            let out = try await Self.throughIdentity(buffer)
            #expect(out?.memoryAddress == UnsafeRawPointer(bytes.baseAddress!), "still not copied after the pipeline")
            #expect(out?.bytes == Array(bytes))
            #expect(releases.load(ordering: .relaxed) == 0, "released while still held")
        }
        // The pipeline lets its last references go as it winds down, perhaps on another thread.
        for _ in 0..<500 where releases.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(releases.load(ordering: .relaxed) == 1, "released once GStreamer and the wrappers were done")
        bytes.deallocate()
    }

    @Test("The release callback runs exactly once, after the last reference goes")
    func releaseRunsOnce() throws {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        defer { bytes.deallocate() }
        let releases = Atomic(0)
        do {
            let buffer = try Buffer(wrapping: bytes, readOnly: true) { releases.add(1, ordering: .relaxed) }
            let region = buffer.region(offset: 8, size: 16)
            #expect(region?.size == 16)
            _ = buffer
            #expect(releases.load(ordering: .relaxed) == 0)
        }
        #expect(releases.load(ordering: .relaxed) == 1)
    }

    @Test("The releasing form hands the wrapped bytes back, where a Swift 6 caller can free them")
    func releaseHandsBytesBack() throws {
        // A @Sendable release closure cannot capture the pointer (it is not Sendable): before this form, a
        // user could not free the bytes in the release, as the documentation says to.
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
        let expected = (UInt(bitPattern: bytes.baseAddress), bytes.count)
        let handedBack = Locked<[(UInt, Int)]>([])
        do {
            let buffer = try Buffer(wrapping: bytes, readOnly: true) { released in
                handedBack.withLock { $0.append((UInt(bitPattern: released.baseAddress), released.count)) }
                released.deallocate()
            }
            #expect(buffer.memoryAddress == UnsafeRawPointer(bytes.baseAddress!))
            #expect(handedBack.withLock { $0.isEmpty }, "released while still held")
        }
        let calls = handedBack.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first?.0 == expected.0 && calls.first?.1 == expected.1)
    }

    @Test("Wrapping no bytes throws and names what is wrong")
    func wrapNothing() {
        #expect(throws: GStreamerError.self) {
            try Buffer(wrapping: UnsafeMutableRawBufferPointer(start: nil, count: 0)) {}
        }
    }

    @Test("Reference timestamps are added, read back, and survive identity")
    func referenceTimestamps() async throws {
        let buffer = try Buffer(bytes: [1, 2, 3])
        let ntp = ReferenceTimestamp(
            reference: try Caps("timestamp/x-ntp"), timestamp: 3_900_000_000_000_000_000, duration: 40_000_000)
        let unix = ReferenceTimestamp(reference: try Caps("timestamp/x-unix"), timestamp: 1_700_000_000_000_000_000)
        buffer.addReferenceTimestamp(ntp)
        buffer.addReferenceTimestamp(unix)
        #expect(buffer.referenceTimestamps == [ntp, unix])
        let out = try #require(try await Self.throughIdentity(buffer))
        #expect(out.referenceTimestamps == [ntp, unix])
    }

    @Test("A custom meta carries a structure's fields through identity")
    func customMeta() async throws {
        try CustomMeta.register("gstpipe-test-detections", tags: ["video"])
        try CustomMeta.register("gstpipe-test-detections")  // again: nothing happens
        let buffer = try Buffer(bytes: [9, 9])
        #expect(buffer.customMeta("gstpipe-test-detections") == nil)
        try buffer.addCustomMeta("gstpipe-test-detections", try Structure("boxes, count=(int)3, label=(string)cat"))
        let out = try #require(try await Self.throughIdentity(buffer))
        let fields = try #require(out.customMeta("gstpipe-test-detections"))
        #expect(fields["count"]?.intValue == 3)
        #expect(fields["label"]?.stringValue == "cat")
    }

    @Test("Custom meta names GLib would abort on, or not registered, throw")
    func customMetaErrors() throws {
        #expect(throws: GStreamerError.self) { try CustomMeta.register("1 bad name") }
        let buffer = try Buffer(bytes: [0])
        #expect(throws: GStreamerError.self) {
            try buffer.addCustomMeta("gstpipe-never-registered", try Structure("x"))
        }
    }

    @Test("A pool hands out buffers of its size up to its maximum, and gets them back")
    func bufferPool() throws {
        let caps = try Caps("video/x-raw,format=GRAY8,width=16,height=16")
        let pool = try BufferPool(caps: caps, size: 256, minBuffers: 1, maxBuffers: 2)
        #expect(pool.isActive)
        var first = try #require(try pool.acquire(wait: false))
        let second = try #require(try pool.acquire(wait: false))
        #expect(first.size == 256 && second.size == 256)
        #expect(try pool.acquire(wait: false) == nil, "both buffers are out")
        let address = first.memoryAddress
        first = try Buffer(size: 1)  // the pool's buffer goes back
        let again = try #require(try pool.acquire(wait: false))
        #expect(again.memoryAddress == address, "the same memory, reused")
        _ = (first, second)
    }

    @Test("A pool with impossible counts throws")
    func bufferPoolErrors() {
        #expect(throws: GStreamerError.self) { try BufferPool(size: 0) }
        #expect(throws: GStreamerError.self) { try BufferPool(size: 16, minBuffers: 3, maxBuffers: 2) }
    }
}
