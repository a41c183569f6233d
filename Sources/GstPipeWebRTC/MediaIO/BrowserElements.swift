import MediaIO
import Synchronization

/// Puts a user's own source or sink object into a launch description: each is registered as an
/// element type of its own (MediaIO makes elements from types), named with a number no other has,
/// whose one instance is the object.
enum BrowserElementNames {
    private static let counter = Mutex(0)

    /// A number no earlier call returned.
    static func next() -> Int {
        counter.withLock { number in
            number += 1
            return number
        }
    }

    /// The element name of `source` as video source number `number`.
    static func register(_ source: some VideoSource, number: Int) throws -> String {
        try named("video-source", number) { name in
            try MediaIOElements.registerSource(name: name, longName: name, description: about) { _ in source }
        }
    }

    /// The element name of `sink` as video sink number `number`.
    static func register(_ sink: some VideoSink, number: Int) throws -> String {
        try named("video-sink", number) { name in
            try MediaIOElements.registerSink(name: name, longName: name, description: about) { _ in sink }
        }
    }

    /// The element name of `source` as audio source number `number` (a generic function opens the
    /// existential: MediaIO registers a type).
    static func register(_ source: any AudioSource, number: Int) throws -> String {
        func open<Source: AudioSource>(_ source: Source) throws -> String {
            try named("audio-source", number) { name in
                try MediaIOElements.registerAudioSource(name: name, longName: name, description: about) { _ in source }
            }
        }
        return try open(source)
    }

    /// The element name of `sink` as audio sink number `number`.
    static func register(_ sink: any AudioSink, number: Int) throws -> String {
        func open<Sink: AudioSink>(_ sink: Sink) throws -> String {
            try named("audio-sink", number) { name in
                try MediaIOElements.registerAudioSink(name: name, longName: name, description: about) { _ in sink }
            }
        }
        return try open(sink)
    }

    /// What gst-inspect-1.0 would say of each.
    private static let about = "A Swift object joined to a browser over WebRTC (GstPipeWebRTC)"

    /// `gstpipe-browser-ROLE-NUMBER`, after `register` has registered it.
    private static func named(_ role: String, _ number: Int, register: (String) throws -> Void) throws -> String {
        let name = "gstpipe-browser-\(role)-\(number)"
        try register(name)
        return name
    }
}
