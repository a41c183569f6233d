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
        let name = "gstpipe-browser-video-source-\(number)"
        try MediaIOElements.registerSource(
            name: name, longName: "Browser viewers' video", description: "A Swift VideoSource served to browsers"
        ) { _ in source }
        return name
    }

    /// The element name of `source` as audio source number `number`.
    static func register(_ source: any AudioSource, number: Int) throws -> String {
        try registerAudio(source, name: "gstpipe-browser-audio-source-\(number)")
    }

    private static func registerAudio<Source: AudioSource>(_ source: Source, name: String) throws -> String {
        try MediaIOElements.registerAudioSource(
            name: name, longName: "Browser viewers' sound", description: "A Swift AudioSource served to browsers"
        ) { _ in source }
        return name
    }

    /// The element name of `sink` as video sink number `number`.
    static func register(_ sink: some VideoSink, number: Int) throws -> String {
        let name = "gstpipe-browser-video-sink-\(number)"
        try MediaIOElements.registerSink(
            name: name, longName: "Browser publisher's video", description: "A Swift VideoSink fed by a browser"
        ) { _ in sink }
        return name
    }

    /// The element name of `sink` as audio sink number `number`.
    static func register(_ sink: any AudioSink, number: Int) throws -> String {
        try registerAudioSink(sink, name: "gstpipe-browser-audio-sink-\(number)")
    }

    private static func registerAudioSink<Sink: AudioSink>(_ sink: Sink, name: String) throws -> String {
        try MediaIOElements.registerAudioSink(
            name: name, longName: "Browser publisher's sound", description: "A Swift AudioSink fed by a browser"
        ) { _ in sink }
        return name
    }
}
