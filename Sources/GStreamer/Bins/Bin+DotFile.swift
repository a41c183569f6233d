import CGStreamer

extension Bin {
    /// Writes the bin as a Graphviz graph to `<GST_DEBUG_DUMP_DOT_DIR>/<name>.dot`, as
    /// `GST_DEBUG_BIN_TO_DOT_FILE` does, and returns the file's path; nil (and nothing written) when
    /// `GST_DEBUG_DUMP_DOT_DIR` was not set when GStreamer initialized. Render it with `dot -Tpng`.
    /// ``dotGraph()`` gives the same text without a file.
    ///
    /// The corresponding C function is `gst_debug_bin_to_dot_file`.
    ///
    /// - Parameter name: The file's name, without `.dot`; it must not contain `/`.
    /// - Returns: The path of the file written, or nil.
    /// - Throws: ``GStreamerError`` (invalid argument) for an empty name or one with `/`.
    @discardableResult
    public func writeDotFile(named name: String) throws(GStreamerError) -> String? {
        guard !name.isEmpty, !name.contains("/") else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "'\(name)' cannot name a dot file: give a non-empty name without '/', such as 'playing'")
        }
        // GStreamer reads the folder once, at initialization; reading the variable now says the same unless
        // the application changed it since.
        guard let folder = g_getenv("GST_DEBUG_DUMP_DOT_DIR").map({ String(cString: $0) }), !folder.isEmpty else {
            return nil
        }
        gst_debug_bin_to_dot_file(binPointer, GST_DEBUG_GRAPH_SHOW_ALL, name)
        let path = folder + "/" + name + ".dot"
        return g_file_test(path, G_FILE_TEST_EXISTS) != 0 ? path : nil
    }
}
