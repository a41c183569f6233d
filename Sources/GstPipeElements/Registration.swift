import MediaIO

/// The built-in Swift elements.
public enum GstPipeElements {
    /// Registers `noise`, `gray`, `x264grayenc`, `audionoise` and `mono` with GStreamer (once per process; later calls do nothing), or
    /// into `plugin` when called from a plugin's init function.
    ///
    /// - Parameter plugin: The `GstPlugin` pointer a plugin's init function was given; nil registers the
    ///   elements for this process only.
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or a name is taken by an element of another plugin.
    public static func register(plugin: UnsafeMutableRawPointer? = nil) throws(GStreamerError) {
        try MediaIOElements.registerSource(
            name: "noise", longName: "White noise video source",
            description: "Random pixels in any raw video format (gstpipe, Swift)", formats: Noise.formats,
            properties: Noise.properties, plugin: plugin
        ) { Noise(properties: $0) }
        try MediaIOElements.registerFilter(
            name: "gray", longName: "Grayscale renderer",
            description:
                "Renders each frame's luminance and hands the gray frame on, in the same format (gstpipe, Swift)",
            sinkFormats: Gray.formats, srcFormats: Gray.formats, properties: Gray.properties, plugin: plugin
        ) { Gray(properties: $0) }
        try GrayH264Encoder.register(plugin: plugin)
        try MediaIOElements.registerAudioSource(
            name: "audionoise", longName: "White noise audio source",
            description: "Uniform random samples in any raw audio format, rate and channel count (gstpipe, Swift)",
            properties: AudioNoise.properties, pulled: true, plugin: plugin
        ) { AudioNoise(properties: $0) }
        try MediaIOElements.registerAudioFilter(
            name: "mono", longName: "Mono mixer",
            description:
                "Mixes every channel into one, keeping rate and sample format; mono passes through (gstpipe, Swift)",
            classification: "Filter/Converter/Audio",
            properties: Mono.properties, plugin: plugin
        ) { Mono(properties: $0) }
    }
}
