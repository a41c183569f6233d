// Your own element shipped as a GStreamer plugin: the element, and the one function GStreamer looks
// for in libgstframecounter.so. In a package this file is the whole of a `.dynamic` library product
// named `gstframecounter`; here it is a snippet, so the descriptor is compiled and the element tried
// in-process.

// snippet.element
import MediaIO
import Synchronization

/// Counts the frames that reach it, and says how many at the end of the stream.
final class FrameCounter: VideoSink {
    static let properties = [
        PropertySpec("label", blurb: "What the count is printed after", .string(default: "frames"))
    ]
    private let properties: ElementProperties
    private let count = Mutex(0)

    init(properties: ElementProperties) { self.properties = properties }
    // Any raw format: the counter never reads a pixel.
    var pixelFormat: VideoPixelFormat { .i420 }
    var acceptedPixelFormats: [VideoPixelFormat] { VideoPixelFormat.allCases }

    func render(_ frame: VideoFrame) throws { count.withLock { $0 += 1 } }
    func endOfStream() { print("\(properties.string("label") ?? "frames"): \(count.withLock { $0 })") }
}
// snippet.end

// snippet.descriptor
/// GStreamer calls this when it loads libgstframecounter.so from GST_PLUGIN_PATH.
@_cdecl("gst_plugin_framecounter_get_desc")
public func frameCounterPluginDescriptor() -> UnsafeRawPointer {
    Plugin.descriptor(name: "framecounter", description: "Counts video frames", version: "1.0") { plugin in
        try registerFrameCounter(plugin: plugin)
    }
}

/// One registration for both uses: into the plugin GStreamer loads, or into this process (nil).
func registerFrameCounter(plugin: UnsafeMutableRawPointer?) throws {
    try MediaIOElements.registerSink(
        name: "framecounter", longName: "Frame counter", description: "Counts the frames that reach it",
        properties: FrameCounter.properties, plugin: plugin
    ) { FrameCounter(properties: $0) }
}
// snippet.end

// snippet.hide
try registerFrameCounter(plugin: nil)
let pipeline = try Pipeline(launch: "videotestsrc num-buffers=3 ! framecounter label=counted")
try await pipeline.run()
