import GStreamer
import GstPipeElements

/// The descriptor of the gstpipe plugin (libgstgstpipe.so → plugin "gstpipe"), which GStreamer looks
/// up by this name. Registers the built-in elements (GstPipeElements) into the plugin with the same
/// registration code that gstpipe uses in-process.
@_cdecl("gst_plugin_gstpipe_get_desc")
public func gstpipePluginDescriptor() -> UnsafeRawPointer {
    Plugin.descriptor(
        name: "gstpipe",
        description: "Swift elements from gstpipe: noise, gray, x264grayenc, audionoise and mono",
        version: "0.1.0"
    ) { plugin in
        try GstPipeElements.register(plugin: plugin)
    }
}
