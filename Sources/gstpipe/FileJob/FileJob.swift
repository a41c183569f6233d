import Foundation
import GstPipeParsing
import MediaIO

/// The files a description names directly, what is made for them, and the user's description with
/// each of them replaced by a junction element (`tokens`), which is all that gst_parse reads; the
/// elements for the files are made in code around the junctions (`FileJobElements`):
///
/// - a first token that is an existing file or a URI becomes a decoding source;
/// - a last token that is a file name with a known extension becomes encoder, muxer and file sink,
///   and gets the input's audio when both are files, as ffmpeg would;
/// - `filesink location=out.mp4` fed raw video by a Swift element gets the same encoder and muxer.
///
/// A description whose elements work on sound alone (`in.mp4 ! audioconvert ! out.ogg`) gets the
/// input's audio instead of its video, and its outputs are written as audio (`media`).
struct FileJob {
    struct Input {
        /// The token as written, its password masked.
        let name: String
        /// What GStreamer reads: without the user and password of an rtsp:// input, which go to
        /// rtspsrc as properties (`credentials`), so that no property showing the URI shows them.
        let uri: String
        var credentials: URICredentials? = nil

        /// A live network source (rtsp://, srt://, udp://): it has no length, and may send nothing.
        var isNetwork: Bool { StreamInput.named(uri) != nil }
    }

    struct Output {
        let path: String
        var format: OutputFormat
        /// Its place among the outputs, counted from the description's end; the labels of its elements
        /// (gstpipe-mux0, gstpipe-output0, ...) carry it, for messages.
        let index: Int
        /// The element written just before the output, such as "gray".
        let feeder: String?
        /// What reaches the output: what its own chain works on (`noise ! gray ! a.mp4 audiotestsrc !
        /// b.wav` writes video to a.mp4 and audio to b.wav), else what the description does.
        var media: MediaKind = .video
        /// The audio encoder the input's audio goes through beside the video, or nil for video
        /// only (and for an audio description, whose output chain is audio itself).
        var audioEncoder: String?
        /// Written to play after the process is killed outright (MP4 and QuickTime in fragments).
        var crashSafe = false
        /// Made from `filesink location=...` right after a Swift element, not from a file name.
        var fromFilesink = false
        /// The network destination (or HLS playlist) it goes to, nil for a file.
        var stream: (any StreamOutput)? = nil

        /// The video chain after the converter: for gray's output, a format's gray chain when it has
        /// one; else the encoder's input caps, if any, and the format's chain.
        var videoChain: [String] {
            if feeder == "gray", let gray = format.grayVideoChain { return gray }
            return (format.encoderInput.map { [$0, "!"] } ?? []) + format.videoChain
        }

        /// The element that stands in the description where the output was named (`junction(named:)`):
        /// `FileJobElements` builds the output's chain after it.
        var junction: String { "gstpipe-output-junction\(index)" }
    }

    /// A description that cannot be run as written (exit 2), or a file that cannot be read or
    /// written (exit 1): `CommandFailure`, which the parsers of `GstPipeParsing` throw.
    typealias Failure = CommandFailure

    /// The element that stands in the description where the input was named: the decoded video (or
    /// audio) enters the description through it (`FileJobElements`).
    static let inputJunction = "gstpipe-input-junction"

    /// What stands in the description for a file or URI token: a named `identity`, the one element
    /// of a file job that gst_parse makes, so that the user's own elements have something to link to
    /// (`in.mp4 ! gray`, `tee name=t ! queue ! a.mp4 t. ! ...`) and `FileJobElements` finds where
    /// each chain it builds begins or ends. identity, not queue: it passes buffers, events and queries
    /// through on the same thread (no thread, no copy, no buffering that would change a run's timing).
    static func junction(named name: String) -> [String] { ["identity", "name=\(name)"] }

    /// Turns pictures as their `image-orientation` tag says (from an MP4 or QuickTime display
    /// matrix, an EXIF orientation or a `taginject`), as ffmpeg applies a display matrix by default.
    /// It follows the tag as it comes, after caps too: the caps after it change and are negotiated
    /// again. Without the tag, it passes buffers through untouched. A converter goes before it: it
    /// takes fewer formats than decoders give (not GBR, Y42B or P010).
    static let upright = ElementSpec("videoflip", [("video-direction", .text("auto"))])

    var input: Input?
    var outputs: [Output] = []
    /// What goes down the description: pictures, or sound when its elements work on sound alone.
    var media: MediaKind = .video
    /// The user's description to parse, each element one token as gst-launch-1.0's arguments, with
    /// each file or URI token replaced by a junction (`junction(named:)`); the rest of the job is built
    /// in code around it (`FileJobElements`).
    var tokens: [String]
    /// True when pictures are turned upright as their orientation tag says (`upright`): after the
    /// decoding source, or before each video output when there is no input file. With
    /// `--no-autorotate`, they stay as stored and MP4 and QuickTime outputs get the input's display
    /// matrix (`FileJobRun`).
    var autorotate = true
    /// One-line notes for the user (what a mapping did).
    var notes: [String] = []
    /// Notes that hold only when the input has audio (an audio track left out), said once its
    /// streams are known.
    var notesIfAudio: [String] = []

    /// The part of the input to read (`--start`, `--end`, `--duration`), nil for all of it.
    var range: TimeRange?

    /// What the command line says about stream outputs (`--hls-window`, ...).
    var streamSettings = StreamSettings()

    /// True when the description named no file: it runs exactly as written.
    var isPlainDescription: Bool { input == nil && outputs.isEmpty }

    /// Reads the description's tokens, checks the files they name, and builds the description to run.
    ///
    /// Outputs are written to survive the process being killed outright (`crashSafe`) when their
    /// input cannot be read again (a live or network source, a Swift source, a test pattern), or
    /// always when `alwaysCrashSafe`. A transcode of a local file is written plainly: it can be run
    /// again, and crash-safe MP4 costs about 20 bytes a sample.
    ///
    /// `klass` gives an element factory's klass by name (`GStreamer.classification(ofElement:)`), from which the
    /// description's `media` is read.
    init(
        tokens original: [String], swiftElements: Set<String>, alwaysCrashSafe: Bool = false, autorotate: Bool = true,
        streamSettings: StreamSettings = StreamSettings(),
        klass: (String) -> String? = GStreamer.classification(ofElement:)
    ) throws(Failure) {
        tokens = original
        self.autorotate = autorotate
        self.streamSettings = streamSettings
        let names = Set(
            original.compactMap { $0.hasPrefix("name=") ? TokenReader.unquoted(String($0.dropFirst(5))) : nil })
        let reader = TokenReader(names: names)

        // Outputs first, from the end, so indices before them stay valid.
        var replacements: [(range: Range<Int>, output: Output)] = []
        for span in reader.filesinks(in: tokens) {
            guard let location = span.location else {
                throw .usage(
                    "filesink has no location: give it the file to write, such as filesink location=out.mp4")
            }
            guard let format = OutputFormat.forPath(location), let feeder = span.feeder,
                swiftElements.contains(feeder)
            else { continue }
            var output = Output(path: location, format: format, index: replacements.count, feeder: feeder)
            output.fromFilesink = true
            replacements.append((span.range, output))
        }
        // A file name ending a chain: the description's last token, or one a new branch follows
        // (tee name=t ! queue ! a.mp4 t. ! queue ! b.mkv).
        for index in tokens.indices.reversed() where index >= 2 && tokens[index - 1] == "!" {
            guard index == tokens.count - 1 || tokens[index + 1] != "!" else { continue }
            let path = TokenReader.unquoted(tokens[index])
            if let stream = try StreamOutputs.output(named: path) {
                var output = Output(
                    path: path, format: stream.format, index: replacements.count,
                    feeder: reader.feeder(before: index, in: tokens))
                output.stream = stream
                replacements.append((index..<index + 1, output))
                continue
            }
            guard reader.isFileName(path, position: .last) else { continue }
            guard let format = OutputFormat.forPath(path) else {
                throw .usage(
                    "cannot write \(path): gstpipe writes \(OutputFormat.knownExtensions) files by name "
                        + "(put an encoder and filesink location=\(path) in its place for anything else)")
            }
            let output = Output(
                path: path, format: format, index: replacements.count, feeder: reader.feeder(before: index, in: tokens))
            replacements.append((index..<index + 1, output))
        }
        if tokens.count >= 2, tokens[1] == "!", reader.isFileName(TokenReader.unquoted(tokens[0]), position: .first) {
            input = try Self.readInput(TokenReader.unquoted(tokens[0]))
        }
        // The description as the user wrote it, files left out, says what it works on.
        let described = tokens.indices.filter { index in
            !(input != nil && index == 0) && !replacements.contains { $0.range.contains(index) }
        }.map { tokens[$0] }
        let found = MediaKind.found(in: described, klass: klass)
        media = Self.media(found: found, outputs: replacements.map(\.output))
        for index in replacements.indices {
            // The output's own chain, from where it starts (the description's start, or an element
            // no `!` leads to) up to the output, says what reaches it when it says anything.
            let end = replacements[index].range.lowerBound
            let start = Self.chainStart(before: end, in: tokens)
            let chain = (start..<end).filter { !(input != nil && $0 == 0) }.map { tokens[$0] }
            let own = MediaKind.found(in: chain, klass: klass)
            let kind: MediaKind = own[.video] != nil ? .video : own[.audio] != nil ? .audio : media
            replacements[index].output.media = kind
            try Self.check(replacements[index].output, holds: kind, shownBy: own[kind] ?? found[kind])
        }
        // A stream whose format holds video alone (RTSP, rtp://) may send a file's audio too.
        for index in replacements.indices where input != nil && replacements[index].output.media == .video {
            guard var stream = replacements[index].output.stream else { continue }
            stream.carryInputAudio()
            replacements[index].output.stream = stream
            replacements[index].output.format = stream.format
        }
        // The input's audio goes to one output: the last in the description that can hold it and is
        // written video (uridecodebin has one pad per stream, so a second audio branch would wait
        // forever).
        let audioTarget = replacements.sorted { $0.range.lowerBound > $1.range.lowerBound }
            .first { $0.output.format.audioEncoders != nil && $0.output.media == .video }?.output.index
        let crashSafe = alwaysCrashSafe || !(input?.uri.hasPrefix("file:") ?? false)
        for replacement in replacements {
            var output = replacement.output
            output.crashSafe = crashSafe
            try Self.checkWritable(output, input: input)
            if let note = output.stream?.startNote(streamSettings) { notes.append(note) }
            if output.fromFilesink, let feeder = output.feeder {
                notes.append(
                    "filesink location=\(output.path) gets raw \(output.media) from \(feeder): encoding it as "
                        + "\(output.format.name(for: output.media)) (put your own encoder before filesink to choose another)"
                )
            }
            if output.media == .video {
                if output.index == audioTarget || output.format.audioEncoders == nil {
                    output.audioEncoder = audioEncoder(for: output)
                } else if input != nil {
                    notesIfAudio.append(Self.videoOnlyNote(output.path))
                }
            }
            outputs.append(output)
        }
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let output = outputs.first { $0.index == replacement.output.index }!
            try Self.checkInstalled(output)
            tokens.replaceSubrange(replacement.range, with: Self.junction(named: output.junction))
        }
        if input != nil {
            tokens.replaceSubrange(0..<1, with: Self.junction(named: Self.inputJunction))
        }
        if streamSettings.oneEncode
            && !outputs.contains(where: {
                $0.media == .video && ($0.stream == nil || $0.stream?.leadsSharedEncode == true)
            })
        {
            throw .usage(
                "--one-encode gives a video file output, and the stream outputs beside an rtmp:// output, one "
                    + "encoder in a tee's branches, and this description writes no video file and no rtmp://")
        }
    }

    /// Said of an output that gets no audio because the input's goes to another output, unless it
    /// shares that output's encoders (`SharedEncodes.audioReceivers`).
    static func videoOnlyNote(_ path: String) -> String { "\(path) gets video only: the audio goes to one output" }

    /// True when pictures are turned upright before each video output: with autorotate and no input
    /// file (one is turned upright as it is decoded, so that the description works on it upright as
    /// ffmpeg's filters do).
    var uprightOutputs: Bool { autorotate && input == nil }

    /// Where the chain that ends at `end` begins: the description's first token, or an element that
    /// no `!` leads to (`audiotestsrc` in `noise ! a.mp4 audiotestsrc ! b.wav`, `t.` in
    /// `tee name=t ! a.mp4 t. ! b.mkv`). Properties (`num-buffers=3`) belong to the element before them.
    static func chainStart(before end: Int, in tokens: [String]) -> Int {
        var start = end - 1
        while start > 0 {
            let token = tokens[start]
            if token != "!" && tokens[start - 1] != "!" && !token.contains("=") { break }
            start -= 1
        }
        return max(start, 0)
    }

    /// What the description carries: video when any of its elements or caps is video (its audio
    /// then follows beside it into the outputs), audio when they are audio only. A description
    /// that names neither (`in.flac ! out.wav`, `in.mp4 ! queue ! out.mkv`) carries audio when
    /// every output holds audio alone, else video, as before audio descriptions existed.
    private static func media(found: [MediaKind: String], outputs: [Output]) -> MediaKind {
        if found[.video] != nil { return .video }
        if found[.audio] != nil { return .audio }
        if !outputs.isEmpty && outputs.allSatisfy({ !$0.format.holdsVideo }) { return .audio }
        return .video
    }

    /// Refuses an output that cannot hold what the description makes (`noise ! gray ! out.wav`,
    /// `audiotestsrc ! out.png`), naming what would. `token` is what showed the description's kind.
    private static func check(_ output: Output, holds media: MediaKind, shownBy token: String?) throws(Failure) {
        let format = output.format
        guard !format.holds(media) else { return }
        let holds = format.isImage ? "pictures" : format.holdsVideo ? "video" : "audio"
        let fileExtension = URL(fileURLWithPath: output.path).pathExtension
        throw .usage(
            "cannot write \(output.path): .\(fileExtension) holds \(holds) only, and this description makes "
                + "\(media)\(token.map { " (\($0))" } ?? ""): write it to \(OutputFormat.extensions(holding: media))")
    }

    /// Checks that the input exists and can be read. What it holds is learnt as the pipeline starts
    /// (`FileJobRun`): probing it first would cost a second start of demuxer and decoders.
    static func readInput(_ token: String) throws(Failure) -> Input {
        if TokenReader.isURI(token) {
            let live = StreamInput.named(token)
            try live?.check(token)
            guard live?.takesCredentials == true else { return Input(name: Secrets.redact(token), uri: token) }
            let (uri, credentials) = try URICredentials.split(token)
            return Input(name: Secrets.redact(token), uri: uri, credentials: credentials)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: token, isDirectory: &isFolder) else {
            throw .runtime("input file \(token) does not exist: check the path")
        }
        guard !isFolder.boolValue else { throw .runtime("\(token) is a folder: give a media file") }
        guard FileManager.default.isReadableFile(atPath: token) else {
            throw .runtime("cannot read \(token): check its permissions")
        }
        return Input(name: token, uri: URL(fileURLWithPath: token).standardizedFileURL.absoluteString)
    }

    /// Why `input` gives no `media` (its video, or its audio for an audio description), found by
    /// reading it with GStreamer's discoverer (after the pipeline failed on it): not media, no
    /// decoder for that stream, no such stream at all; nil when the discoverer finds nothing wrong.
    static func diagnose(_ input: Input, media: MediaKind) -> String? {
        // The discoverer would connect again, and wait as long as the stream sends nothing.
        guard !input.isNetwork else { return nil }
        let info: MediaInfo
        do {
            info = try MediaInfo.discover(uri: input.uri)
        } catch {
            if error.isUnknownType {
                return "\(input.name) is not a media file GStreamer can read (\(error.message))"
            }
            return "cannot read \(input.name): \(error.message)"
        }
        if let missing = info.missingDecoders.first(where: { media == .video ? $0.isVideo : $0.isAudio }) {
            return "cannot decode the \(media) of \(input.name): no \(missing.description) is installed "
                + "(try sudo apt-get install gstreamer1.0-libav gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly)"
        }
        guard (media == .video ? info.videoStreams : info.audioStreams) > 0 else {
            return "\(input.name) has no \(media) stream"
        }
        return nil
    }

    private static func checkWritable(_ output: Output, input: Input?) throws(Failure) {
        if let stream = output.stream, !stream.isFile { return }
        let url = URL(fileURLWithPath: output.path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .runtime("cannot write \(output.path): the folder \(folder) does not exist")
        }
        if let input, input.uri == url.absoluteString {
            throw .usage("\(output.path) is also the input: write to another file")
        }
        if output.format.isImage && output.path.contains("%") && !OutputFormat.isSequence(output.path) {
            throw .usage(
                "cannot write \(output.path): a numbered image sequence takes a %d pattern, such as frame%04d.png")
        }
    }

    /// The audio encoder for `output`, or nil (with a note, should the input have audio) when the
    /// audio stays behind. An input without audio, or whose audio cannot be decoded, loses the
    /// branch as the pipeline starts (`FileJobRun`).
    private mutating func audioEncoder(for output: Output) -> String? {
        guard input != nil else { return nil }
        guard let encoders = output.format.audioEncoders else {
            if !output.format.isImage { notesIfAudio.append("\(output.path) holds no audio: writing video only") }
            return nil
        }
        guard let encoder = encoders.first(where: { GStreamer.hasElement(named: $0) }) else {
            notesIfAudio.append(
                "no audio encoder for \(output.path) is installed (\(encoders[0]) comes with "
                    + "\(OutputFormat.package(of: encoders[0]))): writing video only")
            return nil
        }
        return encoder
    }

    /// Throws when an element the output's chain needs (encoder, muxer) is not installed, naming the
    /// package that provides it.
    private static func checkInstalled(_ output: Output) throws(Failure) {
        let format = output.format
        if output.media == .video {
            let elements = output.videoChain.filter { $0 != "!" && !$0.contains("=") && !$0.contains("/") }
            for element in elements where !GStreamer.hasElement(named: element) {
                throw .runtime(notInstalled(element, for: output))
            }
        } else {
            let encoders = format.audioEncoders ?? []
            guard encoders.contains(where: { GStreamer.hasElement(named: $0) }) else {
                throw .runtime(notInstalled(encoders.first ?? "", alternatives: encoders.dropFirst(), for: output))
            }
        }
        if let muxer = format.muxer, !GStreamer.hasElement(named: muxer) {
            throw .runtime(notInstalled(muxer, for: output))
        }
    }

    /// "cannot write out.mp3: the lamemp3enc element is not installed (sudo apt-get install ...)".
    private static func notInstalled(
        _ element: String, alternatives: ArraySlice<String> = [], for output: Output
    ) -> String {
        let what =
            alternatives.isEmpty
            ? "the \(element) element is not installed"
            : "neither \(([element] + alternatives).joined(separator: " nor ")) is installed"
        return "cannot write \(output.path): \(what) (sudo apt-get install \(OutputFormat.package(of: element)))"
    }
}
