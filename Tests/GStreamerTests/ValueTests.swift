import Foundation
import GStreamer
import GstPipeSupport
import Testing

@Suite(
    "Value: any GValue made from Swift and read back; boxed and object values through signals and properties",
    .bounded)
struct ValueTests {
    @Test("Plain values round trip: Int, UInt, Double, Bool, String, NULL string")
    func plain() {
        #expect(Value(-42).int == -42)
        #expect(Value(-42).uint == nil)
        #expect(Value(UInt.max).uint == UInt.max)
        #expect(Value(UInt.max).int == nil)
        #expect(Value(2.5).double == 2.5)
        #expect(Value(true).bool == true)
        #expect(Value("text").string == "text")
        #expect(Value(nil as String?).isNull)
        #expect(Value(7).typeName == "gint64")
    }

    @Test("Enums and flags by nick: parsed by type name, read back as nick and flag nicks")
    func enumsAndFlags() throws {
        let state = try Value(parsing: "paused", as: "GstState")
        #expect(state.enumNick == "paused")
        #expect(state.int == 3)
        let flags = try Value(parsing: "flush+accurate", as: "GstSeekFlags")
        #expect(Set(try #require(flags.flagNicks)) == ["flush", "accurate"])
        #expect(throws: GStreamerError.self) { try Value(parsing: "sideways", as: "GstState") }
        #expect(throws: GStreamerError.self) { try Value(parsing: "1", as: "NoSuchType") }
    }

    @Test("Structure, Caps, Buffer, Sample, Promise and Element round trip with their GTypes")
    func boxedAndObjects() throws {
        let structure = try Structure("application/x-test, count=(int)3, name=(string)abc")
        #expect(Value(structure).structure == structure)
        #expect(Value(structure).typeName == "GstStructure")
        let caps = try Caps("video/x-raw, width=(int)320")
        #expect(Value(caps).caps?.description == caps.description)
        let buffer = try Buffer(size: 64)
        #expect(Value(buffer).buffer?.size == 64)
        let sample = Sample(buffer: buffer, caps: caps)
        #expect(Value(sample).sample?.buffer?.size == 64)
        #expect(Value(Promise()).typeName == "GstPromise")
        let element = try Element(factory: "identity", name: "ident")
        let value = Value(element)
        #expect(value.element?.name == "ident")
        #expect(value.object?.name == "ident")
        #expect(value.isA("GstElement") && value.isA("GObject") && !value.isA("GstBin"))
        #expect(value.structure == nil && value.int == nil)
    }

    @Test("Any boxed type by pointer: a GstStructure copied through its type, a field's GError message")
    func anyBoxed() throws {
        let structure = try Structure("application/x-boxed, n=(int)1")
        let value = try structure.withUnsafeGstStructure { pointer in
            try Value(copyingBoxed: UnsafeRawPointer(pointer), as: "GstStructure")
        }
        #expect(value.structure == structure)
        #expect(value.withUnsafeBoxedPointer { $0 != nil })
        #expect(throws: GStreamerError.self) {
            try structure.withUnsafeGstStructure { try Value(copyingBoxed: UnsafeRawPointer($0), as: "gint") }
        }
        var holder = try Structure(name: "holder")
        holder.set("inner", value: value)
        #expect(holder.value("inner")?.structure == structure)
        #expect(holder.value("missing") == nil)
    }

    @Test("Properties of any type as Values: an enum set by nick, caps, an object property read back")
    func properties() throws {
        let source = try Element(factory: "videotestsrc")
        try source.setValue(Value("ball"), ofProperty: "pattern")
        #expect(try source.value(ofProperty: "pattern").enumNick == "ball")
        let filter = try Element(factory: "capsfilter")
        try filter.setValue(Value(try Caps("video/x-raw, width=(int)64")), ofProperty: "caps")
        #expect(try filter.value(ofProperty: "caps").caps?.description == "video/x-raw, width=(int)64")
        #expect(throws: GStreamerError.self) { try filter.setValue(Value(true), ofProperty: "caps") }
        #expect(throws: GStreamerError.self) { try filter.value(ofProperty: "nonexistent") }
        #expect(throws: GStreamerError.self) { try source.setValue(Value("x"), ofProperty: "name-that-is-not") }
    }

    @Test("splitmuxsink's format-location-full: a GstSample argument read, the file name returned; files appear")
    func boxedSignalArgument() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("value-tests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=10 ! video/x-raw,width=64,height=48,framerate=10/1 ! jpegenc "
                + "! splitmuxsink name=mux muxer-factory=matroskamux max-size-time=500000000")
        let mux = try #require(pipeline.element(named: "mux"))
        let seen = Locked<[(UInt, String)]>([])
        try mux.connectReturning("format-location-full") { arguments in
            let fragment = arguments[0].uint ?? 99
            let caps = arguments[1].sample?.caps?.description ?? "no sample"
            seen.withLock { $0.append((fragment, caps)) }
            return .string(directory.appendingPathComponent("part\(fragment).mkv").path)
        }
        try await pipeline.run()
        let calls = seen.withLock { $0 }
        #expect(calls.map(\.0) == [0, 1])
        #expect(calls.allSatisfy { $0.1.hasPrefix("image/jpeg") })
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("part1.mkv").path))
    }

    @Test("A Promise awaited: replied from another thread, interrupted by cancellation, expired")
    func promise() async throws {
        let promise = Promise()
        #expect(promise.state == .pending)
        let reply = try Structure("application/x-reply, answer=(int)42")
        Task.detached { promise.reply(with: reply) }
        #expect(try await promise.reply() == reply)
        #expect(promise.state == .replied)

        let empty = Promise()
        empty.reply(with: nil)
        #expect(try await empty.reply() == nil)

        let expired = Promise()
        expired.expire()
        await #expect(throws: GStreamerError.self) { try await expired.reply() }
        #expect(expired.state == .expired)

        let cancelled = Promise()
        let waiter = Task { try await cancelled.reply() }
        waiter.cancel()
        await #expect(throws: GStreamerError.self) { try await waiter.value }
        #expect(cancelled.state == .interrupted)
    }

    @Test("A promise given through a signal argument and a structure returned as a Value")
    func promiseThroughSignal() async throws {
        let element = try Element(factory: "identity")
        let sent = Promise()
        // The signal hands a GstPromise-typed value through SignalValue's conversion and back.
        let value = SignalValue.value(Value(sent))
        let received = try #require(value.promise)
        received.reply(with: try Structure("application/x-via-signal"))
        #expect(try await sent.reply()?.name == "application/x-via-signal")
        _ = element
    }
}
