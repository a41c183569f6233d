import Foundation
import Testing

@Suite("gstpipe options: progress, -v, --stats, --preview, --help")
struct CLIOptionsTests {
    /// Runs gstpipe on a pseudo-terminal (util-linux `script`), as a user at a terminal would.
    static func onTerminal(_ arguments: [String], environment: [String: String?] = [:]) throws -> CLIResult {
        let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var env: [String: String?] = [
            "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TERM": "xterm", "COLUMNS": "80", "LINES": "24"
        ]
        for (key, value) in environment { env[key] = value }
        return try CLI.run(
            ["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"),
            environment: env, timeout: 60)
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    @Test(
        "On a terminal a progress line is redrawn in place; -q silences it; a pipe never gets it",
        .enabled(if: hasScript, "util-linux script is not installed"))
    func progress() throws {
        let arguments = [
            "noise", "num-buffers=40", "!", "video/x-raw,framerate=50/1", "!", "gray", "!", "fakesink", "sync=true"
        ]
        let shown = try Self.onTerminal(arguments)
        #expect(shown.status == 0, "\(shown.stdout)")
        let redraws = shown.stdout.split(separator: "\r").filter { $0.contains(" fps") }
        #expect(redraws.count >= 2 && redraws.count <= 10, "a 0.8 s run redraws at most 5 times a second: \(redraws)")
        #expect(shown.stdout.contains("40 frames"))
        let quiet = try Self.onTerminal(["-q"] + arguments)
        #expect(quiet.status == 0)
        #expect(!quiet.stdout.contains("fps"))
        let piped = try CLI.run(arguments)
        #expect(piped.status == 0)
        #expect(piped.stdout.isEmpty)
    }

    @Test(
        "On a terminal an audio run's progress line is position / duration and percent, with no frame count",
        .enabled(if: hasScript, "util-linux script is not installed"))
    func audioProgress() async throws {
        let input = try await Media.sineFLAC()
        let output = Media.temporary("progress", "wav")
        defer { try? FileManager.default.removeItem(at: output) }
        // identity sync=true plays the 2.32 s at its own pace, so the line is redrawn along the way.
        let shown = try Self.onTerminal([
            input.path, "!", "audioconvert", "!", "identity", "sync=true", "!", output.path
        ])
        #expect(shown.status == 0, "\(shown.stdout)")
        let redraws = shown.stdout.split(separator: "\r").filter { $0.contains(" / 0:00:02.3") }
        #expect(redraws.count >= 5, "redrawn along the way: \(redraws)")
        #expect(redraws.allSatisfy { $0.contains("%") }, "\(redraws)")
        #expect(!shown.stdout.contains("frames") && !shown.stdout.contains("fps"), "\(shown.stdout)")
    }

    @Test("A mistyped option, anywhere on the line, is a usage error naming it and the option meant")
    func mistypedOption() throws {
        let before = try CLI.run(["--reconect", "noise", "num-buffers=1", "!", "gray", "!", "fakesink"])
        #expect(before.status == 2)
        #expect(before.stderr.contains("Unknown option '--reconect'. Did you mean '--reconnect'?"), "\(before.stderr)")
        #expect(!before.stderr.contains("syntax error"), "\(before.stderr)")
        let after = try CLI.run(["noise", "num-buffers=1", "!", "gray", "!", "fakesink", "--record-kep=5"])
        #expect(after.status == 2)
        #expect(
            after.stderr.contains("Unknown option '--record-kep'. Did you mean '--record-keep'?"), "\(after.stderr)")
        // Nothing close: named, with no guess.
        let far = try CLI.run(["--zzzzzz", "noise", "num-buffers=1", "!", "fakesink"])
        #expect(far.status == 2)
        #expect(far.stderr.contains("Unknown option '--zzzzzz'. See 'gstpipe --help'"), "\(far.stderr)")
        // gst-launch-1.0's -e: what gstpipe does unasked.
        let eos = try CLI.run(["-e", "noise", "num-buffers=1", "!", "fakesink"])
        #expect(eos.status == 2)
        #expect(eos.stderr.contains("sends end of stream on Ctrl-C by default"), "\(eos.stderr)")
        // Negative numbers and caps stay the description's.
        let fine = try CLI.run([
            "noise", "num-buffers=2", "!", "videobalance", "brightness=-0.5", "!", "gray", "!", "fakesink"
        ])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test("-v prints the caps negotiated on each pad")
    func verboseCaps() throws {
        let result = try CLI.run(
            [
                "-v", "noise", "num-buffers=2", "!", "video/x-raw,format=I420,width=64,height=48", "!", "gray", "!",
                "fakesink"
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "/GstPipeline:pipeline0/GstGray:gray0.GstPad:src: caps = video/x-raw, format=(string)I420, width=(int)64, height=(int)48"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "/GstPipeline:pipeline0/GstFakeSink:fakesink0.GstPad:sink: caps = video/x-raw, format=(string)I420"))
    }

    @Test("--stats prints frames and frames per second of each Swift element")
    func stats() throws {
        let result = try CLI.run(["--stats", "noise", "num-buffers=25", "!", "gray", "!", "fakesink"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Swift elements (run of ") == true)
        #expect(
            lines.contains { $0.hasPrefix("  noise0: 0 frames in, 25 out, ") && $0.hasSuffix(" per frame in Swift") })
        #expect(lines.contains { $0.hasPrefix("  gray0: 25 frames in, 25 out, ") && $0.contains(" fps, ") })
        let audio = try CLI.run(["--stats", "audionoise", "num-buffers=12", "!", "mono", "!", "fakesink"])
        #expect(audio.status == 0, "\(audio.stderr)")
        let audioLines = audio.stdout.split(separator: "\n").map(String.init)
        #expect(
            audioLines.contains {
                $0.hasPrefix("  audionoise0: 0 buffers in, 12 out, ") && $0.hasSuffix(" per buffer in Swift")
            })
        #expect(audioLines.contains { $0.hasPrefix("  mono0: 12 buffers in, 12 out, ") && $0.contains(" buffers/s, ") })
    }

    @Test(
        "No display but a terminal: autovideosink draws colour ASCII art",
        .enabled(if: hasScript, "util-linux script is not installed"))
    func terminalPreview() throws {
        let result = try Self.onTerminal(["noise", "num-buffers=10", "!", "gray", "!", "autovideosink"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(
            result.stdout.contains("no display (DISPLAY and WAYLAND_DISPLAY are unset): previewing in the terminal"))
        // libcaca paints with colour escape sequences and characters from its ramp.
        #expect(result.stdout.contains("\u{1B}["))
        #expect(result.stdout.filter { "@8XS%t;:".contains($0) }.count > 500)
    }

    @Test("--preview window with no display is an error that says what to do; none runs headless")
    func previewChoice() throws {
        let window = try CLI.run(["--preview", "window", "noise", "num-buffers=3", "!", "gray", "!", "autovideosink"])
        #expect(window.status == 1)
        #expect(
            window.stderr
                == "ERROR: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset): use --preview terminal "
                + "or --preview none, or run under a desktop or Xvfb\n")
        let none = try CLI.run(["--preview", "none", "noise", "num-buffers=3", "!", "gray", "!", "autovideosink"])
        #expect(none.status == 0)
        #expect(none.stderr.isEmpty, "an explicit choice needs no note")
        let bad = try CLI.run(["--preview", "tv", "noise", "!", "fakesink"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("The value 'tv' is invalid for '--preview <where>'"))
    }

    @Test("gstpipe --help, word for word")
    func help() throws {
        let result = try CLI.run(["--help"], environment: ["COLUMNS": "80", "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 0)
        #expect(result.stdout == Self.helpText)
    }

    static let helpText = """
        OVERVIEW: Run a GStreamer pipeline, written as for gst-launch-1.0, with Swift
        elements inside.

        Arguments are joined the way gst-launch-1.0 joins them: each argument is one
        token. Swift elements (noise, gray) can stand anywhere an element can.

        Files: a first token that is an existing file or a URI is decoded: its video
        goes on down the description, or its audio when the description's elements are
        audio alone (audioconvert, volume). A file name that ends the description, or a
        branch of it, is encoded by its extension: .mp4 and .mov (H.264, AAC audio),
        .mkv (H.264, Vorbis), .webm (VP8, Opus), .y4m (raw), .png and .jpg (one image,
        or one a frame when the name holds %d, as frame%04d.png); audio alone: .wav
        (PCM), .flac, .ogg and .opus (Opus), .m4a (AAC), .mka (Vorbis), .mp3. Audio
        alone into .mp4, .mov, .mkv or .webm makes a file of that container with no
        video. When both ends are files and the description is video, the input's audio
        is kept, as ffmpeg would. filesink location=out.mp4 right after a Swift element
        is encoded the same way. H.264 of gray's output is monochrome (4:0:0), as
        ffmpeg's -vf format=gray writes it; put video/x-raw,format=I420 after gray for
        players that want 4:2:0. As ffmpeg does, pictures are turned upright as the
        input's display matrix says (--no-autorotate keeps them as stored), and the
        pixel aspect ratio, title, artist, comment, creation time and audio language
        are kept where the output can hold them.

        Streams: a description may end in rtsp://HOST:PORT/PATH (served to any number
        of viewers), srt://HOST:PORT (caller) or srt://:PORT (listener),
        udp://HOST:PORT (MPEG-TS), rtp://HOST:PORT (the SDP printed, or written by
        --sdp), DIR/NAME.m3u8 (HLS), webrtc://HOST:PORT/PATH (a page and WHEP for
        browsers), whip+http(s)://HOST:PORT/PATH (published to a WHIP server) or
        rtmp(s)://HOST[:PORT]/APP/KEY (published to an RTMP server), video encoded for
        streaming (x264 zerolatency, a key frame every 2 s at any frame rate). A first
        token rtsp://, srt://, udp://, rtmp://, webrtc:// or whep+http:// is a live
        input, which fails after --timeout seconds with nothing.

        Examples:
          gstpipe noise ! gray ! autovideosink
          gstpipe input.mp4 ! gray ! output.mp4
          gstpipe noise num-buffers=100 ! gray ! noise.mkv
          gstpipe input.mp4 ! gray ! frame%04d.png
          gstpipe input.mp4 ! gray ! rtsp://0.0.0.0:8554/gray
          gstpipe input.mp4 ! audioconvert ! sound.ogg
          gstpipe audiotestsrc num-buffers=200 ! tone.wav
          gstpipe videotestsrc num-buffers=50 ! gray ! videoconvert ! autovideosink
          gstpipe -f pipelines/5-tee-display-and-file.pipeline

        With no display, autovideosink previews in the terminal (ASCII art; q or Escape
        ends it), or nowhere when there is no terminal either; --preview chooses. With
        no sound server or card, autoaudiosink plays to nowhere, keeping time.

        Ctrl-C (SIGINT), SIGTERM and SIGHUP send end of stream so files are finalized;
        a second one stops at once. MP4 and MOV from a live or generated source are
        written in fragments until the end, so they play even after kill -9.

        Exit status: 0 finished (end of stream), 1 runtime error, 2 usage or pipeline
        syntax error, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up
        (SIGHUP).

        gstpipe inspect lists the Swift elements; gstpipe inspect NAME shows any
        element's properties.

        USAGE: gstpipe [options] <description>...
                 gstpipe inspect [<name>]
                 gstpipe plan-segments <input> --segment-seconds <N> [--json]
                 gstpipe join <output> <segment>... [--audio <file>]
                 gstpipe recordings <folder> [--from <time> --to <time>] [--json] [--output <file>]

        ARGUMENTS:
          <description>           The pipeline, as for gst-launch-1.0.

        OPTIONS:
          -m, --messages          Print bus messages as they arrive.
          -v, --verbose           Print the caps negotiated on each pad, and
                                  GStreamer's debug details with errors.
          -q, --quiet             Print nothing but errors (no progress line, no notes).
          --stats                 At the end, print frames and frames per second of
                                  each Swift element.
          --preview <where>       Where autovideosink shows video: window, terminal
                                  (ASCII art) or none. Default: a window when there is
                                  a display, else the terminal, else none. (values:
                                  window, terminal, none)
          --no-eos-on-shutdown    On Ctrl-C, SIGTERM or SIGHUP, stop at once instead of
                                  sending end of stream and waiting for it.
          --crash-safe            Write .mp4 and .mov outputs in one-second fragments
                                  even when the input is a local file, so that they
                                  play up to the last second written if gstpipe is
                                  killed outright (kill -9, a power cut). Live, network
                                  and generated inputs are written that way by default.
          --no-autorotate         Keep pictures as stored instead of turning them
                                  upright as the input's display matrix or orientation
                                  tag says; .mp4 and .mov outputs get the input's
                                  display matrix instead, as ffmpeg's -noautorotate
                                  does.
          --graph <FILE>          Draw the pipeline as it ran, with negotiated caps, to
                                  FILE (.svg or .png through Graphviz, or .dot).
          --hls-window <segments> Segments (2 s each) a .m3u8 playlist lists while
                                  live; older ones are deleted. 0 lists and keeps every
                                  segment (a full playlist). (default: 6)
          --sdp <FILE>            Write the session description of an rtp:// output to
                                  FILE instead of printing it.
          --rtsp-tcp              Receive an rtsp:// input's RTP over the RTSP
                                  connection (TCP), for networks that block UDP.
          --rtsp-users <FILE>     Who may watch rtsp:// outputs: a file of
                                  user:password lines (or user:gstpipe:HASH, as
                                  htdigest writes), yours and readable by you alone.
          --tls-cert <FILE>       The certificate of an rtsps:// output (PEM).
          --tls-key <FILE>        The private key of --tls-cert (PEM).
          --tls-no-verify         Accept any certificate from an rtsps:// input's
                                  server (a self-signed test server): unsafe.
          --timeout <seconds>     Seconds a network input (rtsp://, srt://, udp://,
                                  rtmp://, webrtc://, whep+http://) may send nothing
                                  before gstpipe gives up; 0 waits forever. (default:
                                  10.0)
          --reconnect             When the network input fails, ends or sends nothing
                                  for --timeout, open it again (after 1, 2, 4 ... 30 s)
                                  while the outputs go on: the last frame, then a "no
                                  signal" slate.
          --reconnect-max <seconds>
                                  With --reconnect: give up (exit 1) once the input has
                                  been away this long.
          --one-encode            Encode a tee's outputs once: a file output with the
                                  stream outputs beside it (their H.264: zero latency,
                                  their bitrate) instead of on its own for quality, and
                                  the stream outputs beside an rtmp:// output with its
                                  encoding. Stream outputs that want the same H.264
                                  always share one.
          --stun <uri>            A STUN server for webrtc:// (stun://HOST:PORT): the
                                  server and its pages learn their addresses as seen
                                  from beyond a NAT.
          --turn <uri>            A TURN server for webrtc://
                                  (turn://USER:PASS@HOST:PORT, or turns://): media
                                  relayed where no direct path exists; the served pages
                                  use it too.
          --public-ip <address>   The address a NAT forwards to this machine: webrtc://
                                  also offers its candidates there.
          --start <time>          Start at this time of a file input: seconds (12.5, up
                                  to 9 decimals) or HH:MM:SS.mmm. The output holds the
                                  frames from there, timestamps from zero, the audio
                                  cut to the same span.
          --end <time>            Stop before this time of a file input (frames in
                                  [start, end) are kept).
          --duration <time>       Keep this long of a file input from --start (instead
                                  of --end).
          --no-audio              Leave the input's audio out: the output holds video
                                  alone.
          --no-video              Leave the input's video out: the output holds audio
                                  alone (name an audio file: .m4a, .mka, .wav...).
          --metrics <host:port>   Serve Prometheus metrics at http://HOST:PORT/metrics
                                  and the input's health at /healthz (200 while it
                                  delivers, else 503), such as 127.0.0.1:9100.
          --events <FILE>         Append one JSON object a line to FILE (- for standard
                                  output) for each thing that happens: started, input
                                  lost and back, viewer joined and left, recording
                                  written and deleted, error, stopped.
          --record <pattern>      Also record what the description outputs (the same
                                  encoding) into files named by this strftime pattern,
                                  such as rec/%Y-%m-%d/%H-%M-%S.mp4 (.mp4 or .mkv);
                                  live inputs only.
          --record-segment <seconds>
                                  Seconds of each recorded file, cut on a key frame
                                  (default 60).
          --record-keep <duration>
                                  Delete recorded files older than this (90s, 30m, 24h,
                                  7d); never the one being written.
          --record-max-size <size>
                                  Delete the oldest recorded files while they take more
                                  than this (500M, 10G); never the one being written.
          -f <FILE>               Run the description kept in FILE (# starts a comment;
                                  newlines count as spaces).
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          inspect                 List the Swift elements, or show the properties of
                                  one element (Swift or GStreamer).
          plan-segments           Print the segments (on frame boundaries) to transcode
                                  a file in, for gstpipe join.
          join                    Join encoded segments (of one encoding) into one
                                  file, without encoding them again.
          recordings              List the files --record wrote into DIR with their
                                  wall-clock spans and gaps, or write a span.

          See 'gstpipe help <subcommand>' for detailed help.

        """
}
