// ThresholdPlugin: your own MediaIO element, shipped as a GStreamer plugin in a few lines. The
// library product `gstthreshold` builds libgstthreshold.so; with its folder on GST_PLUGIN_PATH,
// gst-launch-1.0, gst-inspect-1.0 and any GStreamer application can use `threshold`:
//
//   swift build --product gstthreshold
//   GST_PLUGIN_PATH=.build/debug gst-launch-1.0 videotestsrc num-buffers=30 ! threshold level=100 ! videoconvert ! autovideosink
import GStreamer
import MediaIO
import Synchronization

/// Black below `level`, white from it, on the luma of GRAY8 or I420 (chroma set neutral).
final class Threshold: VideoFilter {
    static let properties = [
        PropertySpec("level", blurb: "Luma from which a pixel turns white", .int(range: 0...255, default: 128))
    ]
    private let properties: ElementProperties
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    init(properties: ElementProperties) { self.properties = properties }
    var pixelFormat: VideoPixelFormat { .gray8 }
    var acceptedPixelFormats: [VideoPixelFormat] { [.gray8, .i420] }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }

    func render(_ frame: VideoFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let level = UInt8(properties.int("level"))
        let output = try consumer.makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        try frame.withPlanes { input in
            try output.withMutablePlanes { output in
                for row in 0..<input[0].rows {
                    let (from, to) = (input[0].row(row), output[0].row(row))
                    for column in from.indices { to[column] = from[column] >= level ? 255 : 0 }
                }
                for plane in output.dropFirst() { plane.bytes.initializeMemory(as: UInt8.self, repeating: 128) }
            }
        }
        consumer.consume(output)
    }
}

/// The plugin: GStreamer finds it by this name in libgstthreshold.so.
@_cdecl("gst_plugin_threshold_get_desc")
public func thresholdPluginDescriptor() -> UnsafeRawPointer {
    Plugin.descriptor(name: "threshold", description: "Black and white by a luma threshold (example)", version: "1.0") {
        plugin in
        try MediaIOElements.registerFilter(
            name: "threshold", longName: "Threshold", description: "Black below a luma level, white from it",
            sinkFormats: [.gray8, .i420], srcFormats: [.gray8, .i420], properties: Threshold.properties, plugin: plugin
        ) { Threshold(properties: $0) }
    }
}
