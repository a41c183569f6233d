import GStreamer
import GstPipeSupport
import MediaIO
import Synchronization
import Testing

/// A source that keeps its consumer after dispose, as a capturer's own thread may still hold it.
final class KeepingSource: VideoSource {
    static let kept = Locked<[String: any VideoFrameConsumer]>([:])
    let properties: ElementProperties

    init(properties: ElementProperties) { self.properties = properties }

    var bufferType: VideoBufferType { .rawData }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        KeepingSource.kept.withLock { $0[properties.string("tag") ?? "?"] = consumer }
        return true
    }

    static let registered: Void = {
        try! MediaIOElements.registerSource(
            name: "keepingsrc", longName: "Keeping source", description: "Keeps its consumer", formats: [.gray8],
            properties: [tagProperty]
        ) { KeepingSource(properties: $0) }
    }()
}

@Suite("A Swift element's SwiftElement and consumer outlive the element safely", .bounded)
struct SwiftElementLifetimeTests {
    static let format = VideoFrameFormat(pixelFormat: .gray8, width: 16, height: 8, frameRate: VideoFrameRate(30))

    @Test("A consumer kept after the element is gone drops frames (.flushing) instead of trapping")
    func consumerAfterElement() throws {
        _ = KeepingSource.registered
        weak var released: SwiftElement?
        do {
            let pipeline = try Pipeline(launch: "keepingsrc name=src tag=kept ! fakesink")
            released = pipeline.element(named: "src")?.swiftElement
            #expect(released != nil)
            try pipeline.setState(.ready)
            pipeline.stop()
        }
        // The element is finalized with the pipeline, and its SwiftElement with it: nothing keeps it alive.
        #expect(released == nil)
        let consumer = try #require(KeepingSource.kept.withLock { $0["kept"] })
        let bytes = [UInt8](repeating: 128, count: 16 * 8)
        // Before the consumer held its SwiftElement weakly, this read a deallocated unowned reference: a trap.
        let result = bytes.withUnsafeBytes {
            consumer.consumeRawData($0, timestamp: 0, format: Self.format, rotation: .none)
        }
        #expect(result == .flushing)
        consumer.endOfStream()
        consumer.reportError("too late")
        #expect(throws: MediaIOError.self) { try consumer.makeFrame(format: Self.format, timestamp: 0, duration: nil) }
    }

    @Test("A SwiftElement kept after its element is gone answers without touching the element: push .flushing, no name")
    func swiftElementAfterElement() throws {
        _ = KeepingSource.registered
        let swiftElement: SwiftElement
        do {
            let pipeline = try Pipeline(launch: "keepingsrc name=held tag=held ! fakesink")
            swiftElement = try #require(pipeline.element(named: "held")?.swiftElement)
            #expect(swiftElement.name == "held")
            try pipeline.setState(.ready)
            pipeline.stop()
        }
        #expect(swiftElement.name == "")
        let buffer = try Buffer(bytes: [UInt8](repeating: 1, count: 16 * 8), pts: 0, duration: 33_333_333)
        #expect(
            swiftElement.push(buffer, caps: try Caps("video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1"))
                == .flushing)
        #expect(swiftElement.endOfStream() == .flushing)
        swiftElement.postError("too late")
        #expect(swiftElement.downstreamCaps(filter: Caps.any).isAny)
    }
}
