import Foundation
import GstPipeElements
import MediaIO
import Testing

@testable import gstpipe

/// How gstpipe tells an audio description from a video one, without running it: by each element
/// factory's klass, as GStreamer's registry gives it, and by caps filters.
@Suite("Audio or video: what a description works on")
struct MediaKindTests {
    @Test("GStreamer's own elements and caps filters, by their klass and media type")
    func gstreamerElements() throws {
        try GStreamer.initialize()
        let audio = MediaKind.found(
            in: ["audiotestsrc", "wave=sine", "!", "audio/x-raw,rate=8000", "!", "volume", "volume=0.5"],
            klass: GStreamer.classification(ofElement:))
        #expect(audio == [.audio: "audiotestsrc"])
        let video = MediaKind.found(
            in: ["videotestsrc", "!", "video/x-raw,width=64", "!", "videoflip"],
            klass: GStreamer.classification(ofElement:))
        #expect(video == [.video: "videotestsrc"])
        let neither = MediaKind.found(
            in: ["queue", "!", "tee", "name=t", "t.", "!", "identity"], klass: GStreamer.classification(ofElement:))
        #expect(neither.isEmpty)
        #expect(GStreamer.classification(ofElement: "audioconvert") == "Filter/Converter/Audio")
        #expect(GStreamer.classification(ofElement: "nosuchelement") == nil)
    }

    /// `mono` and `audionoise` (Swift audio elements) counted as audio by a klass lookup standing in
    /// for the registry: it shows they need no change here.
    @Test("Swift audio elements count as audio by their klass alone: a file job of them is written as audio")
    func swiftAudioElements() throws {
        try GstPipeElements.register()
        let klasses = ["audionoise": "Source/Audio", "mono": "Filter/Converter/Audio"]
        let klass: (String) -> String? = { klasses[$0] ?? GStreamer.classification(ofElement: $0) }
        let job = try FileJob(
            tokens: ["audionoise", "!", "mono", "!", "out.wav"], swiftElements: ["audionoise", "mono"], klass: klass)
        #expect(job.media == .audio)
        let (pipeline, built) = try FileJobElementsTests.build(job)
        #expect(built.outputs.map { $0.encoder.factoryName } == ["wavenc"])
        #expect(!pipeline.allElements.contains { $0.factoryName == "videoconvert" })

        let mapped = try FileJob(
            tokens: ["audionoise", "!", "mono", "!", "filesink", "location=out.flac"],
            swiftElements: ["audionoise", "mono"],
            klass: klass)
        #expect(
            mapped.notes == [
                "filesink location=out.flac gets raw audio from mono: encoding it as FLAC "
                    + "(put your own encoder before filesink to choose another)"
            ])
        let (mappedPipeline, mappedBuilt) = try FileJobElementsTests.build(mapped)
        #expect(mappedBuilt.outputs.map { $0.encoder.factoryName } == ["flacenc"])
        withExtendedLifetime((pipeline, mappedPipeline)) {}
    }

    @Test("Each output's chain says what reaches it; a chain that says nothing follows the description")
    func kindPerChain() throws {
        try GstPipeElements.register()
        // noise stands in for the registry's Swift source; x264grayenc is not needed without gray.
        let klass: (String) -> String? = { $0 == "noise" ? "Source/Video" : GStreamer.classification(ofElement: $0) }
        let job = try FileJob(
            tokens: ["noise", "!", "videoflip", "!", "a.mp4", "audiotestsrc", "num-buffers=3", "!", "b.wav"],
            swiftElements: ["noise"], klass: klass)
        #expect(job.media == .video)
        #expect(
            Dictionary(uniqueKeysWithValues: job.outputs.map { ($0.path, $0.media) }) == [
                "a.mp4": .video, "b.wav": .audio
            ])
        let (pipeline, built) = try FileJobElementsTests.build(job)
        defer { withExtendedLifetime(pipeline) {} }
        let encoders = built.outputs.map { ($0.file.path, $0.encoder.factoryName) }
        #expect(Dictionary(uniqueKeysWithValues: encoders) == ["a.mp4": "x264enc", "b.wav": "wavenc"])
        #expect(job.outputs.allSatisfy { $0.audioEncoder == nil || $0.path == "a.mp4" })

        #expect(
            FileJob.chainStart(
                before: 8, in: ["noise", "!", "gray", "!", "a.mp4", "audiotestsrc", "num-buffers=3", "!", "b.wav"]) == 5
        )
        // A tee's branch names no kind of its own: it carries what the tee does.
        #expect(throws: FileJob.Failure.self) {
            try FileJob(
                tokens: ["noise", "!", "tee", "name=t", "!", "queue", "!", "a.mp4", "t.", "!", "queue", "!", "b.wav"],
                swiftElements: ["noise"], klass: klass)
        }
    }

    @Test("A file input goes down an audio description as its audio: audioconvert after the decoder, no audio branch")
    func audioInput() async throws {
        try GStreamer.initialize()
        let input = try await Media.sineFLAC()
        let job = try FileJob(tokens: [input.path, "!", "volume", "!", "out.ogg"], swiftElements: [])
        #expect(job.media == .audio)
        #expect(
            job.tokens == [
                "identity", "name=\(FileJob.inputJunction)", "!", "volume", "!", "identity",
                "name=\(job.outputs[0].junction)"
            ])
        let (pipeline, built) = try FileJobElementsTests.build(job)
        defer { withExtendedLifetime(pipeline) {} }
        let decoder = try #require(built.input)
        #expect(decoder.source.factoryName == "uridecodebin")
        #expect(try decoder.source.get("uri").stringValue == input.absoluteString)
        #expect(decoder.decoded.factoryName == "audioconvert")
        #expect(FileJobElementsTests.downstream(of: decoder.decoded)?.name == FileJob.inputJunction)
        #expect(job.outputs.map(\.audioEncoder) == [nil], "the audio is the description itself, not a branch beside it")
        #expect(built.outputs.allSatisfy { $0.audio == nil })
    }
}
