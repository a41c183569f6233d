import CGStreamer
import CGStreamerShim

/// Making elements by factory name, with errors that say what to install when a factory is missing.
///
/// The corresponding C type is `GstElementFactory`.
public enum ElementFactory {
    /// Makes an element of the factory named `factory` (`"videotestsrc"`), named `name` or, when nil,
    /// named by GStreamer (`videotestsrc0`). Throws when no such factory is installed, naming it and,
    /// when known, the Debian package that provides it.
    ///
    /// The corresponding C functions are `gst_element_factory_find` and `gst_element_factory_create`.
    ///
    /// - Parameters:
    ///   - factory: The factory's name.
    ///   - name: The element's name, or nil for a numbered one.
    /// - Returns: The element, as a ``Bin`` wrapper when it is a bin (a pipeline included).
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such factory, (core) when the factory
    ///   makes no element; also when GStreamer cannot be initialized.
    public static func make(_ factory: String, name: String? = nil) throws(GStreamerError) -> Element {
        try GStreamer.initialize()
        guard let found = gst_element_factory_find(factory) else { throw missing(factory) }
        defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
        guard let element = gst_element_factory_create(found, name) else {
            throw GStreamerError(
                kind: .core, message: "the factory \"\(factory)\" could not make an element", source: name)
        }
        return Element.wrap(element)
    }

    /// True when a factory of this name is installed (a plugin's or a Swift element's).
    ///
    /// The corresponding C function is `gst_element_factory_find`.
    ///
    /// - Parameter factory: The factory's name.
    /// - Returns: Whether the factory exists.
    public static func exists(_ factory: String) -> Bool {
        GStreamer.hasElement(named: factory)
    }

    /// The Debian package that usually provides the element factory `factory`, when known, such as
    /// "gstreamer1.0-plugins-ugly" for "x264enc".
    ///
    /// - Parameter factory: The factory's name.
    /// - Returns: The package's name, or nil when the factory is not in the table of common ones.
    public static func debianPackage(providing factory: String) -> String? {
        debianPackages[factory]
    }

    /// The error for a factory that is not installed: GStreamer's parse error "no element", the
    /// package to install when known.
    static func missing(_ factory: String) -> GStreamerError {
        var message = "no element \"\(factory)\""
        if let package = debianPackage(providing: factory) {
            message += ": it usually comes with the Debian package \(package) (sudo apt-get install \(package))"
        }
        return GStreamerError(
            kind: .invalidArgument, message: message, domain: "gst_parse_error",
            code: Int(GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue))
    }

    /// Debian packages of commonly used elements that a fresh machine may lack, by element.
    static let debianPackages: [String: String] = Dictionary(
        uniqueKeysWithValues: factoriesByPackage.flatMap { package, factories in factories.map { ($0, package) } })

    /// The same table by package, as a newcomer adds to it: each package once, with the elements it provides.
    private static let factoriesByPackage: KeyValuePairs<String, [String]> = [
        "gstreamer1.0-plugins-base": [
            "appsrc", "appsink", "ximagesink", "xvimagesink", "videoconvert", "audioconvert", "audioresample",
            "opusenc", "vorbisenc", "oggmux"
        ],
        "gstreamer1.0-plugins-good": [
            "vp8enc", "vp9enc", "matroskamux", "mp4mux", "webmmux", "qtdemux", "jpegenc", "pngenc", "cacasink",
            "autovideosink", "autoaudiosink", "rtph264pay", "udpsink", "wavenc", "flacenc",
            // Since GStreamer 1.18 LAME's MP3 encoder is in -good (it was in -ugly before).
            "lamemp3enc", "xingmux"
        ],
        "gstreamer1.0-plugins-bad": [
            "mpeg2enc", "h264parse", "voaacenc", "y4menc", "openh264enc", "x265enc", "srtsink"
        ],
        "gstreamer1.0-plugins-ugly": ["x264enc"],
        "gstreamer1.0-libav": ["avdec_h264", "avenc_aac", "avdec_aac"],
        "gstreamer1.0-gtk3": ["gtksink"],
        "gstreamer1.0-gl": ["glimagesink"]
    ]
}
