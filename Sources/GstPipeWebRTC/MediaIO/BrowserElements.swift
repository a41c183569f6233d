import GStreamer
import GstPipeSupport
import MediaIO

/// Puts a user's own source and sink objects into a launch description. MediaIO makes elements from
/// types, and a type once registered lives as long as the process: a type per call, whose factory
/// returned the call's object, kept every source and sink ever served alive (and their frames, their
/// threads' work) after `close()`. So each role of each Swift type is one element type,
/// `gstpipe-browser-ROLE-N`, registered once; the objects of one call are handed, for the length of
/// its launch, to the instances that launch makes, and held by nothing else here: when the call's
/// pipeline goes, they go.
enum BrowserElements {
    /// What a user's object is in the pipeline.
    enum Role: String, Sendable {
        case videoSource = "video-source"
        case videoSink = "video-sink"
        case audioSource = "audio-source"
        case audioSink = "audio-sink"
    }

    /// The number of each (role, Swift type) registered, for its element type's name.
    private static let typeNumbers = Locked<[String: Int]>([:])
    /// The objects of the launch under way, by role; empty between launches.
    private static let handed = Locked<[Role: any AnyObject & Sendable]>([:])
    /// Held through a launch, so that two calls at once do not take each other's objects.
    private static let launching = Locked(())

    /// `description` parsed into a pipeline whose `role` elements are the `objects`.
    ///
    /// - Throws: `GStreamerError` when the description does not parse (a plugin missing).
    static func launch(_ description: String, objects: [Role: any AnyObject & Sendable]) throws -> Pipeline {
        try launching.withLock { _ throws -> Pipeline in
            handed.withLock { $0 = objects }
            // GStreamer makes each element, and so calls `take`, on this thread during the parse.
            defer { handed.withLock { $0 = [:] } }
            return try Pipeline(launch: description)
        }
    }

    /// The element name of video sources of `Source`'s type.
    static func name<Source: VideoSource>(of _: Source) throws -> String {
        try named(.videoSource, Source.self) {
            try MediaIOElements.registerSource(name: $0, longName: $0, description: about, make: $1)
        }
    }

    /// The element name of video sinks of `Sink`'s type.
    static func name<Sink: VideoSink>(of _: Sink) throws -> String {
        try named(.videoSink, Sink.self) {
            try MediaIOElements.registerSink(name: $0, longName: $0, description: about, make: $1)
        }
    }

    /// The element name of audio sources of `Source`'s type (an `any AudioSource` passed here is opened).
    static func name<Source: AudioSource>(of _: Source) throws -> String {
        try named(.audioSource, Source.self) {
            try MediaIOElements.registerAudioSource(name: $0, longName: $0, description: about, make: $1)
        }
    }

    /// The element name of audio sinks of `Sink`'s type.
    static func name<Sink: AudioSink>(of _: Sink) throws -> String {
        try named(.audioSink, Sink.self) {
            try MediaIOElements.registerAudioSink(name: $0, longName: $0, description: about, make: $1)
        }
    }

    /// What gst-inspect-1.0 would say of each.
    private static let about = "A Swift object joined to a browser over WebRTC (GstPipeWebRTC)"

    /// The object handed to the launch under way for `role`. The names are this file's alone and
    /// registered for this process only, so only `launch` makes such elements.
    private static func take<Object>(_ role: Role, as type: Object.Type) -> Object {
        guard let object = handed.withLock({ $0[role] }) as? Object else {
            preconditionFailure("a gstpipe-browser-\(role.rawValue) element made outside BrowserElements.launch")
        }
        return object
    }

    /// `gstpipe-browser-ROLE-N` for `Object`'s type, after `register` has registered it with the factory
    /// that takes the launch's object (a no-op but the first time).
    private static func named<Object>(
        _ role: Role, _: Object.Type,
        register: (String, @escaping @Sendable (ElementProperties) -> Object) throws -> Void
    ) throws -> String {
        let key = "\(role.rawValue) \(ObjectIdentifier(Object.self))"
        let number = typeNumbers.withLock { numbers in
            if let number = numbers[key] { return number }
            numbers[key] = numbers.count + 1
            return numbers.count
        }
        let name = "gstpipe-browser-\(role.rawValue)-\(number)"
        try register(name) { _ in take(role, as: Object.self) }
        return name
    }
}
