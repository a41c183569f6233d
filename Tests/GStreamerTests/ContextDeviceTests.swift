import CGStreamer
import Synchronization
import Testing

@testable import GStreamer

/// GstContext and the device monitor.
@Suite("Contexts and the device monitor", .bounded)
struct ContextDeviceTests {
    @Test("A context carries its type, persistence and fields; a pipeline passes it to its children")
    func contextThroughBin() throws {
        let context = try Context(
            type: "gstpipe.test.key", persistent: true, fields: try Structure("ignored, answer=(int)42"))
        #expect(context.type == "gstpipe.test.key")
        #expect(context.isPersistent)
        #expect(context.fields["answer"]?.intValue == 42)
        let pipeline = try Pipeline(launch: "fakesrc ! identity name=child ! fakesink")
        pipeline.setContext(context)
        let child = try #require(pipeline.element(named: "child"))
        #expect(child.context(ofType: "gstpipe.test.key")?.fields["answer"]?.intValue == 42)
        #expect(child.context(ofType: "gstpipe.other") == nil)
    }

    @Test("A need-context message is answered from the sync handler with setContext on its source")
    func needContext() async throws {
        let pipeline = try Pipeline(launch: "fakesrc ! identity name=asker ! fakesink")
        let asker = try #require(pipeline.element(named: "asker"))
        let answered = Atomic(false)
        pipeline.setSyncHandler { message in
            if message.neededContextType == "gstpipe.test.session", let source = message.sourceElement,
                let context = try? Context(type: "gstpipe.test.session", fields: try? Structure("s, id=(int)7"))
            {
                source.setContext(context)
                answered.store(true, ordering: .releasing)
                return .drop
            }
            return .pass
        }
        // What an element does when it needs a context it does not have (C elements post it themselves).
        asker.withUnsafePointer { element in
            let message = gst_message_new_need_context(
                UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self), "gstpipe.test.session")
            _ = gst_element_post_message(element, message)
        }
        let wasAnswered = answered.load(ordering: .acquiring)
        #expect(wasAnswered)
        #expect(asker.context(ofType: "gstpipe.test.session")?.fields["id"]?.intValue == 7)
        pipeline.setSyncHandler(nil)
    }

    @Test("An empty context type throws")
    func emptyType() {
        #expect(throws: GStreamerError.self) { try Context(type: "") }
    }

    @Test("The device monitor's bus reaches its messages: a device-added for each device probed, then what is posted")
    func deviceMonitorMessages() async throws {
        let monitor = try DeviceMonitor()
        try monitor.addFilter(classes: nil)
        let messages = monitor.messages
        do {
            try monitor.start()
        } catch {
            // No provider started (a machine without any): the bus cannot be shown working here.
            #expect(error.message.contains("could not start"))
            return
        }
        // The monitor's bus takes messages only while it runs; GStreamer 1.22 installs no test device
        // provider, so a message posted on that bus stands for a provider's hot-plug message.
        let bus = gst_device_monitor_get_bus(monitor.pointer)!
        let marker = gst_structure_new_empty("gstpipe-test-marker")!
        gst_bus_post(bus, gst_message_new_application(nil, marker))
        gst_object_unref(UnsafeMutableRawPointer(bus))
        var added: [String] = []
        var sawMarker = false
        for await message in messages {
            if case .deviceAdded(_, let device) = message { added.append(device.displayName) }
            if case .application(_, let structure) = message, structure.name == "gstpipe-test-marker" {
                sawMarker = true
                break
            }
        }
        #expect(sawMarker)
        #expect(added.sorted() == monitor.devices.map(\.displayName).sorted())
        monitor.stop()
    }

    @Test("The device monitor filters by class, starts, and lists what there is (maybe nothing)")
    func deviceMonitor() throws {
        let monitor = try DeviceMonitor()
        let video = try monitor.addFilter(classes: "Video/Source")
        try monitor.addFilter(classes: "Audio/Sink", caps: try Caps("audio/x-raw"))
        print("device providers: \(monitor.providers)")
        // A headless machine may have no provider able to start; then start says so by name.
        do {
            try monitor.start()
            let devices = monitor.devices
            print("devices: \(devices.map { "\($0.deviceClass): \($0.displayName)" })")
            let matching = devices.allSatisfy {
                $0.deviceClass.contains("Video/Source") || $0.deviceClass.contains("Audio/Sink")
            }
            #expect(matching)
            monitor.stop()
        } catch {
            #expect(error.message.contains("could not start"))
        }
        #expect(monitor.removeFilter(video))
        #expect(!monitor.removeFilter(video), "already removed")
    }
}
