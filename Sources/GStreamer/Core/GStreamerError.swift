import CGStreamer

/// An error reported by GStreamer, with its own message and the name of the element that raised it.
public struct GStreamerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable, Equatable {
        /// A launch description GStreamer could not construct (syntax, unknown element, bad property).
        case syntax
        /// A state change failed.
        case stateChange
        /// An element reported an error while running (GST_MESSAGE_ERROR).
        case runtime
        /// Initialization or another core failure.
        case core
        /// A value that does not fit (a property of the wrong type, caps that do not parse).
        case invalidArgument
    }

    /// What went wrong, broadly: syntax, state change, runtime, core or invalid argument.
    public var kind: Kind
    /// GStreamer's own message, such as "no element \"nosuchelement\"".
    public var message: String
    /// GStreamer's debug details, when it gave any.
    public var debug: String?
    /// The name of the element that raised the error, when known.
    public var source: String?
    /// The GError domain, such as "gst-resource-error-quark", when the error came from a GError.
    public var domain: String?
    /// The GError code within `domain`.
    public var code: Int

    /// An error of `kind` saying `message`.
    ///
    /// - Parameters:
    ///   - kind: What went wrong, broadly.
    ///   - message: The message for the user.
    ///   - debug: Debug details, or nil.
    ///   - source: The name of the element that raised the error, or nil.
    ///   - domain: The GError domain, or nil.
    ///   - code: The GError code within `domain`; 0 when there is none.
    public init(
        kind: Kind, message: String, debug: String? = nil, source: String? = nil, domain: String? = nil,
        code: Int = 0
    ) {
        self.kind = kind
        self.message = message
        self.debug = debug
        self.source = source
        self.domain = domain
        self.code = code
    }

    /// Takes ownership of a GError (freeing it).
    init(taking error: UnsafeMutablePointer<GError>?, kind: Kind, source: String?, debug: String? = nil) {
        guard let error else {
            self.init(kind: kind, message: "unknown error", debug: debug, source: source)
            return
        }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) }
        self.init(
            kind: kind, message: message, debug: debug, source: source, domain: domain,
            code: Int(error.pointee.code))
    }

    /// True when the error is GStreamer's "no element" parse error (an unknown element name).
    public var isMissingElement: Bool {
        domain == "gst_parse_error" && code == Int(GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue)
    }

    /// True for gst-launch syntax's "Delayed linking failed": a pad the description links by name
    /// (`decoder. ! audioconvert`) never appeared, or none that could link did.
    public var isDelayedLinkFailure: Bool {
        domain == "gst_parse_error" && code == Int(GST_PARSE_ERROR_DELAYED_LINK.rawValue)
    }

    /// True when GStreamer could not tell what kind of data it was given (not a media file).
    public var isUnknownType: Bool {
        domain == "gst-stream-error-quark" && code == Int(GST_STREAM_ERROR_TYPE_NOT_FOUND.rawValue)
    }

    /// True when GStreamer lacks a plugin for the data (no decoder for a stream, and the like).
    public var isMissingPlugin: Bool {
        (domain == "gst-core-error-quark" && code == Int(GST_CORE_ERROR_MISSING_PLUGIN.rawValue))
            || (domain == "gst-stream-error-quark" && code == Int(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue))
    }

    /// True when a file could not be opened for writing, or writing to it failed.
    public var isCannotWrite: Bool {
        domain == "gst-resource-error-quark"
            && [GST_RESOURCE_ERROR_OPEN_WRITE, GST_RESOURCE_ERROR_WRITE, GST_RESOURCE_ERROR_NO_SPACE_LEFT]
                .contains { code == Int($0.rawValue) }
    }

    /// The message, after the element's name when known: "filesrc0: Resource not found.".
    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}
