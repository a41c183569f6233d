import Foundation
import GstPipeElements
import MediaIO
import Testing

@testable import gstpipe

/// What a file job builds around the user's description, checked in the pipeline before it plays:
/// which elements, in which order, linked how, and what is left for the run to link.
@Suite("The elements a file job builds in code")
struct FileJobElementsTests {
    /// Parses the job's description and builds its elements, as a run does. Keep the pipeline while
    /// looking at the elements: once it is freed, its elements are unlinked.
    static func build(_ job: FileJob) throws -> (pipeline: Pipeline, elements: FileJobElements) {
        let pipeline = try Pipeline(arguments: job.tokens)
        return (pipeline, try FileJobElements.build(job, in: pipeline))
    }

    /// The element the source pad of `element` is linked to.
    static func downstream(of element: Element) -> Element? {
        element.pad(named: "src")?.peer?.parentElement
    }

    /// The factories from `element` down to the end of its chain, following each source pad.
    static func chain(from element: Element) -> [String] {
        var factories: [String] = []
        var next: Element? = element
        while let current = next, factories.count < 20 {
            factories.append(current.factoryName ?? "?")
            next = downstream(of: current)
        }
        return factories
    }

    @Test("in.mp4 ! gray ! out.mp4: decoder into the junction, the junction into converter, encoder, muxer and file")
    func fileToFile() async throws {
        try GstPipeElements.register()
        let input = try await Media.clipWithAudio()
        let job = try FileJob(tokens: [input.path, "!", "gray", "!", "/tmp/out.mp4"], swiftElements: ["gray"])
        #expect(
            job.tokens == [
                "identity", "name=\(FileJob.inputJunction)", "!", "gray", "!", "identity",
                "name=\(job.outputs[0].junction)"
            ])
        let (pipeline, built) = try Self.build(job)
        let decoder = try #require(built.input)
        #expect(decoder.source.factoryName == "uridecodebin")
        #expect(try decoder.source.get("uri").stringValue == input.absoluteString)
        #expect(decoder.source.sourcePads.isEmpty, "its pads come as it reads the input")
        #expect(decoder.decoded.pad(named: "sink")?.isLinked == false)
        // Turned upright as decoded, then through gray to the output's junction and chain.
        #expect(
            Self.chain(from: decoder.decoded) == [
                "videoconvert", "videoflip", "videoconvert", "identity", "gray", "identity", "videoconvert",
                "x264grayenc",
                "mp4mux", "filesink"
            ])
        let output = try #require(built.outputs.first)
        #expect(output.encoder.factoryName == "x264grayenc")
        #expect(output.muxer?.factoryName == "mp4mux")
        #expect(try output.sink?.get("location").stringValue == "/tmp/out.mp4")
        #expect(try output.muxer?.get("fragment-duration").intValue == 0, "a local file is written plainly")
        // The audio branch waits at both ends: the decoder's audio pad, the muxer's request pad.
        let audio = try #require(output.audio)
        #expect(
            Self.chain(from: audio.converter) == ["audioconvert", "queue", "audioresample", audio.encoder.factoryName])
        #expect(audio.converter.pad(named: "sink")?.isLinked == false)
        #expect(audio.encoder.pad(named: "src")?.isLinked == false)
        #expect(output.muxer?.pads.filter { $0.direction == .sink }.count == 1, "the video's pad alone")
        #expect(Set(output.elements.map(\.name)).isSubset(of: Set(pipeline.allElements.map(\.name))))
        withExtendedLifetime(pipeline) {}
    }

    @Test("A tee to two files: each junction gets its own chain; the audio goes to the last output only")
    func teeBranches() async throws {
        try GstPipeElements.register()
        let input = try await Media.clipWithAudio()
        let job = try FileJob(
            tokens: [
                input.path, "!", "tee", "name=t", "!", "queue", "!", "/tmp/a.mp4", "t.", "!", "queue", "!",
                "/tmp/b.mkv"
            ],
            swiftElements: [])
        let (pipeline, built) = try Self.build(job)
        defer { withExtendedLifetime(pipeline) {} }
        let byPath = Dictionary(uniqueKeysWithValues: built.outputs.map { ($0.file.path, $0) })
        let first = try #require(byPath["/tmp/a.mp4"])
        let second = try #require(byPath["/tmp/b.mkv"])
        #expect(Self.chain(from: first.converter) == ["videoconvert", "capsfilter", "x264enc", "mp4mux", "filesink"])
        #expect(
            Self.chain(from: second.converter) == ["videoconvert", "capsfilter", "x264enc", "matroskamux", "filesink"])
        #expect(first.audio == nil)
        #expect(second.audio?.encoder.factoryName == "vorbisenc")
        // Each chain hangs off the junction its file was named at: after a queue of the tee.
        for output in [first, second] {
            let junction = try #require(output.converter.pad(named: "sink")?.peer?.parentElement)
            #expect(junction.name == output.file.junction)
            #expect(junction.pad(named: "sink")?.peer?.parentElement?.factoryName == "queue")
        }
    }

    @Test("No input: pictures are turned upright before each output; a live source's MP4 is written crash-safe")
    func generatedToFile() throws {
        try GstPipeElements.register()
        let job = try FileJob(tokens: ["videotestsrc", "!", "/tmp/gen.mp4"], swiftElements: [])
        let (pipeline, built) = try Self.build(job)
        defer { withExtendedLifetime(pipeline) {} }
        #expect(built.input == nil)
        let output = try #require(built.outputs.first)
        #expect(
            Self.chain(from: output.converter)
                == ["videoconvert", "videoflip", "capsfilter", "x264enc", "mp4mux", "filesink"])
        #expect(try output.muxer?.get("fragment-duration").intValue == 1000)
        #expect(output.audio == nil)
    }

    @Test("Stream outputs end in their own sinks: an appsink for RTSP, udpsink for UDP, hlssink2 writing HLS")
    func streams() throws {
        try GstPipeElements.register()
        let job = try FileJob(
            tokens: [
                "videotestsrc", "!", "tee", "name=t", "!", "queue", "!", "rtsp://127.0.0.1:8554/x", "t.", "!", "queue",
                "!", "udp://127.0.0.1:5000", "t.", "!", "queue", "!", "/tmp/live.m3u8"
            ],
            swiftElements: [])
        let (pipeline, built) = try Self.build(job)
        defer { withExtendedLifetime(pipeline) {} }
        let rtsp = try #require(built.outputs.first { $0.file.stream is RTSPOutput })
        #expect(rtsp.sink?.factoryName == "appsink")
        let udp = try #require(built.outputs.first { $0.file.stream is UDPOutput })
        #expect(udp.muxer?.factoryName == "mpegtsmux")
        #expect(try udp.sink?.get("port").intValue == 5000)
        let hls = try #require(built.outputs.first { $0.file.stream is HLSOutput })
        #expect(hls.sink == nil)
        #expect(try hls.muxer?.get("playlist-location").stringValue == "/tmp/live.m3u8")
    }
}
