// Your own element shipped as a GStreamer plugin: the element, and the one function GStreamer looks
// for in libgstbinarize.so. In a package this file is the whole of a `.dynamic` library product named
// `gstbinarize`; here it is a snippet, so the descriptor is compiled and the element tried in-process.

// snippet.element
import MediaIO
import Synchronization

/// Black below `level`, white from it.
final class Binarize: VideoFilter {
    static let properties = [
        PropertySpec("level", blurb: "Luma from which a pixel turns white", .int(range: 0...255, default: 128))
    ]
    private let properties: ElementProperties
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    init(properties: ElementProperties) { self.properties = properties }
    var pixelFormat: VideoPixelFormat { .gray8 }

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
                    for column in 0..<input[0].pixelBytesPerRow {
                        let luma = input[0].bytes[row * input[0].bytesPerRow + column]
                        output[0].bytes[row * output[0].bytesPerRow + column] = luma >= level ? 255 : 0
                    }
                }
            }
        }
        consumer.consume(output)
    }
}
// snippet.end

// snippet.descriptor
/// GStreamer calls this when it loads libgstbinarize.so from GST_PLUGIN_PATH.
@_cdecl("gst_plugin_binarize_get_desc")
public func binarizePluginDescriptor() -> UnsafeRawPointer {
    Plugin.descriptor(name: "binarize", description: "Black and white by a luma threshold", version: "1.0") {
        plugin in
        try registerBinarize(plugin: plugin)
    }
}

/// One registration for both uses: into the plugin GStreamer loads, or into this process (nil).
func registerBinarize(plugin: UnsafeMutableRawPointer?) throws {
    try MediaIOElements.registerFilter(
        name: "binarize", longName: "Binarize", description: "Black below a luma level, white from it",
        sinkFormats: [.gray8], srcFormats: [.gray8], properties: Binarize.properties, plugin: plugin
    ) { Binarize(properties: $0) }
}
// snippet.end

// snippet.hide
try registerBinarize(plugin: nil)
let pipeline = try Pipeline(launch: "videotestsrc num-buffers=3 ! binarize level=100 ! fakesink")
try await pipeline.run()
print("binarize ran in-process")
