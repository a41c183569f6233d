import GStreamer
import Testing

@Suite("Holes closed: shared buffers, refused property values, missing factories", .bounded)
struct CorrectnessTests {
    @Test("Setting a timestamp on a shared buffer changes this wrapper's copy, not the holder's")
    func sharedBufferTimestamps() throws {
        let buffer = try Buffer(size: 16)
        buffer.pts = 1_000
        buffer.duration = 40
        #expect(buffer.isWritable)
        let sample = Sample(buffer: buffer, caps: nil)
        // The sample holds the same GstBuffer: it is shared now.
        #expect(!buffer.isWritable)
        buffer.pts = 2_000
        buffer.duration = 80
        buffer.isDeltaUnit = true
        let held = try #require(sample.buffer)
        #expect(held.pts == 1_000)
        #expect(held.duration == 40)
        #expect(!held.isDeltaUnit)
        #expect(buffer.pts == 2_000)
        #expect(buffer.duration == 80)
        #expect(buffer.isDeltaUnit)
        // The copy shares the memory: no bytes were copied.
        #expect(buffer.memoryRoots == held.memoryRoots)
        #expect(!buffer.isSameBuffer(as: held))
        // Held alone, the copy is written in place from then on.
        #expect(buffer.isWritable)
        let before = buffer.identity
        buffer.pts = 3_000
        #expect(buffer.identity == before)
    }

    @Test("Marking a shared buffer discontinuous changes this wrapper's copy, not the holder's")
    func sharedBufferDiscontinuity() throws {
        let buffer = try Buffer(size: 16)
        let sample = Sample(buffer: buffer, caps: nil)
        #expect(!buffer.isWritable)
        buffer.setDiscontinuity(true)
        let held = try #require(sample.buffer)
        #expect(!held.isDiscontinuity, "the sample's buffer is not written through a shared wrapper")
        #expect(buffer.isDiscontinuity)
        #expect(buffer.memoryRoots == held.memoryRoots)
        buffer.setDiscontinuity(false)
        #expect(!buffer.isDiscontinuity)
    }

    @Test("A fresh buffer is written in place")
    func freshBufferInPlace() throws {
        let buffer = try Buffer(size: 4)
        let before = buffer.identity
        buffer.pts = 5
        buffer.dts = 4
        #expect(buffer.identity == before)
        #expect(buffer.pts == 5)
        #expect(buffer.dts == 4)
    }

    @Test(
        "A property value GLib refuses throws GLib's reason",
        arguments: [("num-buffers", "-2", "out of range"), ("pattern", "no-such-pattern", "not a valid value")])
    func refusedFromString(property: String, value: String, reason: String) throws {
        let source = try Element(factory: "videotestsrc", name: "src")
        let before = try source.get(property)
        do {
            try source.set(property, fromString: value)
            Issue.record("\(property)=\(value) was accepted")
        } catch {
            #expect(error.source == "src")
            #expect(error.message.contains("cannot set property \"\(property)\" of src to \(value)"))
            #expect(error.message.contains(reason))
        }
        #expect(try source.get(property) == before)
        try source.set("num-buffers", fromString: "7")
        #expect(try source.get("num-buffers") == .int(7))
        #expect(throws: GStreamerError.self) { try source.set("no-such-property", fromString: "1") }
    }

    @Test("A typed property value out of range throws GLib's reason")
    func refusedTyped() throws {
        let source = try Element(factory: "videotestsrc", name: "src")
        do {
            try source.set("num-buffers", -5)
            Issue.record("num-buffers=-5 was accepted")
        } catch {
            #expect(error.message.contains("out of range"))
            #expect(error.message.contains("num-buffers"))
        }
        #expect(try source.get("num-buffers") == .int(-1))
    }

    @Test("A missing factory names itself and, when known, the Debian package to install")
    func missingFactory() throws {
        do {
            _ = try ElementFactory.make("nosuchfactory", name: "x")
            Issue.record("a missing factory made an element")
        } catch {
            #expect(error.message == "no element \"nosuchfactory\"")
            #expect(error.isMissingElement)
        }
        #expect(ElementFactory.debianPackage(providing: "x264enc") == "gstreamer1.0-plugins-ugly")
        #expect(ElementFactory.debianPackage(providing: "appsrc") == "gstreamer1.0-plugins-base")
        // A known factory this machine lacks, if any, names its package.
        let known = ["gtksink", "glimagesink", "x265enc", "srtsink", "mpeg2enc", "openh264enc", "x264enc"]
        if let absent = known.first(where: { !ElementFactory.exists($0) }) {
            let package = try #require(ElementFactory.debianPackage(providing: absent))
            #expect(throws: GStreamerError.self) { _ = try Element(factory: absent) }
            do { _ = try Element(factory: absent) } catch {
                #expect(
                    error.message == "no element \"\(absent)\": it usually comes with the Debian package "
                        + "\(package) (sudo apt-get install \(package))")
            }
        }
        let made = try ElementFactory.make("tee", name: "t")
        #expect(made.name == "t")
        #expect(made.factoryName == "tee")
        #expect(try ElementFactory.make("bin") is Bin)
    }
}
