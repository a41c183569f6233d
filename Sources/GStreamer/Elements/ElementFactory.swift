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

    /// Debian packages of commonly used elements that a fresh machine may lack.
    static let debianPackages: [String: String] = [
        "appsrc": "gstreamer1.0-plugins-base", "appsink": "gstreamer1.0-plugins-base",
        "x264enc": "gstreamer1.0-plugins-ugly", "mpeg2enc": "gstreamer1.0-plugins-bad",
        "avdec_h264": "gstreamer1.0-libav", "avenc_aac": "gstreamer1.0-libav", "avdec_aac": "gstreamer1.0-libav",
        "vp8enc": "gstreamer1.0-plugins-good", "vp9enc": "gstreamer1.0-plugins-good",
        "matroskamux": "gstreamer1.0-plugins-good", "mp4mux": "gstreamer1.0-plugins-good",
        "qtdemux": "gstreamer1.0-plugins-good", "jpegenc": "gstreamer1.0-plugins-good",
        "pngenc": "gstreamer1.0-plugins-good", "cacasink": "gstreamer1.0-plugins-good",
        "ximagesink": "gstreamer1.0-plugins-base", "xvimagesink": "gstreamer1.0-plugins-base",
        "autovideosink": "gstreamer1.0-plugins-good", "videoconvert": "gstreamer1.0-plugins-base",
        "h264parse": "gstreamer1.0-plugins-bad", "voaacenc": "gstreamer1.0-plugins-bad",
        "opusenc": "gstreamer1.0-plugins-base", "vorbisenc": "gstreamer1.0-plugins-base",
        "webmmux": "gstreamer1.0-plugins-good", "y4menc": "gstreamer1.0-plugins-bad",
        "gtksink": "gstreamer1.0-gtk3", "glimagesink": "gstreamer1.0-gl", "openh264enc": "gstreamer1.0-plugins-bad",
        "x265enc": "gstreamer1.0-plugins-bad", "rtph264pay": "gstreamer1.0-plugins-good",
        "udpsink": "gstreamer1.0-plugins-good", "srtsink": "gstreamer1.0-plugins-bad",
        // Since GStreamer 1.18 LAME's MP3 encoder is in -good (it was in -ugly before).
        "lamemp3enc": "gstreamer1.0-plugins-good", "xingmux": "gstreamer1.0-plugins-good",
        "wavenc": "gstreamer1.0-plugins-good", "flacenc": "gstreamer1.0-plugins-good",
        "oggmux": "gstreamer1.0-plugins-base", "audioconvert": "gstreamer1.0-plugins-base",
        "audioresample": "gstreamer1.0-plugins-base", "autoaudiosink": "gstreamer1.0-plugins-good",
    ]
}
