// swift-tools-version: 6.0
import PackageDescription

// GStreamer's headers. On Linux through a .pc file of our own: GStreamer's pull in gthread-2.0's
// -pthread, which SwiftPM refuses with a warning on every build.
#if os(Linux)
let gstreamerPkgConfig = Context.packageDirectory + "/Sources/CGStreamer/gstreamer.pc"
let gstreamerWebRTCPkgConfig = gstreamerPkgConfig
let gstreamerPlayPkgConfig = gstreamerPkgConfig
#else
let gstreamerPkgConfig = "gstreamer-1.0"
let gstreamerWebRTCPkgConfig = "gstreamer-webrtc-1.0"
let gstreamerPlayPkgConfig = "gstreamer-play-1.0"
#endif

let package = Package(
    name: "gstpipe",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GStreamer", targets: ["GStreamer"]),
        .library(name: "GStreamerLogging", targets: ["GStreamerLogging"]),
        // webrtcbin typed: offer and answer as async calls, ICE, statistics (GStreamerWebRTC.WebRTCBin).
        .library(name: "GStreamerWebRTC", targets: ["GStreamerWebRTC"]),
        // GstPlay typed: a player for a URI, its events as an AsyncSequence, its media info (GStreamerPlay.Player).
        .library(name: "GStreamerPlay", targets: ["GStreamerPlay"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        // A Swift VideoSource to browser viewers (WHEP), a browser's camera into a Swift VideoSink (WHIP).
        .library(name: "GstPipeWebRTC", targets: ["GstPipeWebRTC"]),
        .library(name: "GstPipeElements", targets: ["GstPipeElements"]),
        // How a long run is doing: Prometheus metrics, health and events (GstPipeMetrics.Metrics).
        .library(name: "GstPipeMetrics", targets: ["GstPipeMetrics"]),
        .executable(name: "gstpipe", targets: ["gstpipe"]),
        // A GStreamer plugin (libgstgstpipe.so) exposing the built-in elements to gst-launch-1.0,
        // gst-inspect-1.0 and any GStreamer application: put its folder on GST_PLUGIN_PATH.
        .library(name: "gstgstpipe", type: .dynamic, targets: ["GstPipePlugin"]),
        // Example: a user's own element as a plugin (libgstthreshold.so).
        .library(name: "gstthreshold", type: .dynamic, targets: ["ThresholdPlugin"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation`: the DocC catalogs in Sources/*/Documentation.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTTP server of `webrtc://` outputs (the viewer page and WHEP signalling).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird logs through swift-log (the WebRTC server gives it a logger that says nothing),
        // and names headers with swift-http-types.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // A channel handler of the WebRTC server's own (request time and connections per address), in
        // Hummingbird's NIO pipeline, after its HTTP decoder (NIOHTTPTypes' request parts).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2")
    ],
    targets: [
        // The GStreamer headers and libraries, found through pkg-config.
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: gstreamerPkgConfig,
            providers: [
                .apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"]),
                .brew(["gstreamer"])
            ]
        ),
        // libx264, for the gray H.264 encoder (x264grayenc): GStreamer 1.22's x264enc takes no GRAY8.
        // Its headers are in the compiler's own search path; x264.pc's Cflags hold only a Windows
        // define (-DX264_API_IMPORTS) that SwiftPM refuses with a warning on every build.
        .systemLibrary(name: "CX264", providers: [.apt(["libx264-dev"]), .brew(["x264"])]),
        // GStreamer's WebRTC and SDP libraries (session descriptions, SDP messages), for GStreamerWebRTC:
        // the same header folders as CGStreamer.
        .systemLibrary(
            name: "CGStreamerWebRTC",
            pkgConfig: gstreamerWebRTCPkgConfig,
            providers: [.apt(["libgstreamer-plugins-bad1.0-dev"]), .brew(["gst-plugins-bad"])]
        ),
        // GStreamer's high-level player (GstPlay), for GStreamerPlay: the same header folders as CGStreamer.
        .systemLibrary(
            name: "CGStreamerPlay",
            pkgConfig: gstreamerPlayPkgConfig,
            providers: [.apt(["libgstreamer-plugins-bad1.0-dev"]), .brew(["gst-plugins-bad"])]
        ),
        // What Swift cannot call directly: variadic GObject calls, macros, casts, GType registration.
        .target(name: "CGStreamerShim", dependencies: ["CGStreamer"]),
        // What several modules share: the lock (Synchronization's Mutex, or one ThreadSanitizer sees under
        // -DGSTPIPE_TSAN). `package` access only, so no product's public API shows it.
        .target(name: "GstPipeSupport"),
        .target(name: "GStreamer", dependencies: ["CGStreamer", "CGStreamerShim", "GstPipeSupport"]),
        // What reads a user's or a peer's text: description tokens, stream addresses and the credentials in
        // them, users files, the redactor, WebRTC offers. Pure Swift, without GStreamer, so that the fuzz
        // targets (Fuzz/) build it alone.
        .target(name: "GstPipeParsing", dependencies: ["GstPipeSupport"]),
        // GStreamer's debug log into swift-log, opt-in (GStreamerLogBridge), kept out of the core.
        .target(name: "GStreamerLogging", dependencies: ["GStreamer", .product(name: "Logging", package: "swift-log")]),
        // The RTSP server behind `gstpipe ... ! rtsp://HOST:PORT/PATH` (gst-rtsp-server): one shared
        // media pipeline fed from the CLI's pipeline, for any number of clients.
        .target(name: "CGStreamerRTSPShim", dependencies: ["CGStreamer", "CLazyLibraries"]),
        // gst-rtsp-server, GStreamer's WebRTC and SDP libraries, GIO and libx264, opened on first use rather than
        // at every start: the modules above declare their functions, this one defines those gstpipe calls.
        // Elsewhere than Linux they are linked as before (lazy.c defines nothing there).
        .target(
            name: "CLazyLibraries", dependencies: ["CGStreamer"],
            linkerSettings: ["gstrtspserver-1.0", "gstrtsp-1.0", "gstsdp-1.0", "gstwebrtc-1.0", "gio-2.0", "x264"].map {
                .linkedLibrary($0, .when(platforms: [.macOS]))
            }),
        // GIO's TCP and TLS, under the WHIP and WHEP clients' HTTP (`HTTPExchange`).
        .systemLibrary(name: "CGIO", pkgConfig: gstreamerPkgConfig),
        .target(
            name: "GStreamerWebRTC", dependencies: ["GStreamer", "CGStreamer", "CGStreamerWebRTC", "CLazyLibraries"]),
        .target(
            name: "GStreamerPlay", dependencies: ["GStreamer", "CGStreamer", "CGStreamerPlay", "GstPipeSupport"]),
        .target(name: "MediaIO", dependencies: ["GStreamer", "CGStreamer", "CGStreamerShim", "GstPipeSupport"]),
        .target(
            name: "GstPipeElements", dependencies: ["MediaIO", "GStreamer", "CX264", "CLazyLibraries", "GstPipeSupport"]
        ),
        // The WebRTC servers (Hummingbird signalling, WHEP viewers, WHIP publishers) the CLI's webrtc://
        // streams run, and MediaIO's way to them (BrowserViewers, BrowserPublisher).
        .target(
            name: "GstPipeWebRTC",
            dependencies: [
                "MediaIO", "GStreamer", "GStreamerWebRTC", "CGStreamer", "GstPipeSupport", "GstPipeParsing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras")
            ]),
        .target(name: "GstPipePlugin", dependencies: ["GstPipeElements", "GStreamer"]),
        // Prometheus metrics, health and events of a run (`gstpipe --metrics`, `--events`), for library users too.
        .target(name: "GstPipeMetrics", dependencies: ["GStreamer", "GstPipeSupport"]),
        .executableTarget(
            name: "gstpipe",
            dependencies: [
                "GstPipeElements", "MediaIO", "GStreamer", "GStreamerWebRTC", "GstPipeWebRTC", "CGStreamerRTSPShim",
                "GstPipeSupport", "GstPipeMetrics", "GstPipeParsing", "CGIO", "CLazyLibraries",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The WHIP and WHEP clients' requests and responses, over GIO (`HTTPExchange`).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            // The toolchain's static-stdlib link exports every symbol of the executable's own objects (26,000
            // here); the loader then reads that table at start (it is searched first for every library's
            // symbols) and the Swift runtime's back-tracer scans it whole with `dladdr`. Nothing looks a symbol
            // of gstpipe up by name. Release builds only: the sanitizers' builds keep the toolchain's defaults.
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "CustomFilter", dependencies: ["GstPipeElements", "MediaIO"], path: "Examples/CustomFilter"),
        .target(name: "ThresholdPlugin", dependencies: ["MediaIO", "GStreamer"], path: "Examples/ThresholdPlugin"),
        .executableTarget(name: "CustomCapturer", dependencies: ["MediaIO"], path: "Examples/CustomCapturer"),
        .executableTarget(name: "CustomRenderer", dependencies: ["MediaIO"], path: "Examples/CustomRenderer"),
        .executableTarget(name: "MediaIOPair", dependencies: ["MediaIO"], path: "Examples/MediaIOPair"),
        .executableTarget(name: "PushMode", dependencies: ["MediaIO"], path: "Examples/PushMode"),
        .executableTarget(name: "FrameStats", dependencies: ["MediaIO"], path: "Examples/FrameStats"),
        .executableTarget(name: "CustomAudioSource", dependencies: ["MediaIO"], path: "Examples/CustomAudioSource"),
        .executableTarget(name: "CustomAudioSink", dependencies: ["MediaIO"], path: "Examples/CustomAudioSink"),
        .executableTarget(
            name: "BrowserCall",
            dependencies: [
                "GstPipeWebRTC", "MediaIO", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Examples/BrowserCall"),
        // The Swift VideoSource and AudioSource that BrowserViewersAudioTests serves to Chromium in a namespace.
        .executableTarget(
            name: "BrowserViewersTone", dependencies: ["GstPipeWebRTC", "MediaIO"], path: "Tests/BrowserViewersTone"),
        .executableTarget(
            name: "AudioVideo", dependencies: ["GstPipeElements", "MediaIO"], path: "Examples/AudioVideo"),
        .executableTarget(
            name: "gstpipe-bench", dependencies: ["GstPipeElements", "MediaIO"], path: "Benchmarks/GstPipeBench"),
        .testTarget(
            name: "GStreamerTests",
            dependencies: [
                "GStreamer", "GstPipeSupport", "GStreamerLogging", .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(name: "GStreamerWebRTCTests", dependencies: ["GStreamerWebRTC", "GStreamer", "GstPipeSupport"]),
        .testTarget(name: "GStreamerPlayTests", dependencies: ["GStreamerPlay", "GStreamer", "GstPipeSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "GStreamer", "GstPipeSupport"]),
        // For the leak test: the bytes malloc has handed out (glibc's mallinfo2, which Swift's Glibc lacks).
        .target(name: "CHeapUsage", path: "Tests/CHeapUsage"),
        .testTarget(
            name: "GstPipeElementsTests",
            dependencies: ["GstPipeElements", "MediaIO", "GStreamer", "CHeapUsage", "GstPipeSupport"]),
        // Offers as a browser writes them, for the two test targets below that answer one.
        .target(name: "BrowserOffers", path: "Tests/BrowserOffers"),
        // GstPipeWebRTC's own tests, in process: its viewers, encodes, rate control and bandwidth estimate.
        .testTarget(
            name: "GstPipeWebRTCTests",
            dependencies: ["GstPipeWebRTC", "GStreamer", "GstPipeParsing", "GstPipeSupport", "BrowserOffers"]),
        .testTarget(
            name: "gstpipeTests",
            dependencies: [
                "gstpipe", "MediaIO", "GStreamer", "GstPipeElements", "GstPipeSupport", "GstPipeWebRTC",
                "GstPipeMetrics", "GstPipeParsing", "BrowserOffers"
            ])
    ],
    swiftLanguageModes: [.v6]
)

// GStreamer's basic tutorials in Swift, one executable each (Examples/Tutorials/BasicTutorialN/main.swift),
// and what they share (the clip they play when given none, their checks).
let tutorials =
    [1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13].map { "BasicTutorial\($0)" }
    + [1, 2, 3, 4, 5, 6, 7, 8].map { "PlaybackTutorial\($0)" }
package.targets.append(
    .target(name: "TutorialSupport", dependencies: ["GStreamer"], path: "Examples/Tutorials/TutorialSupport"))
package.targets += tutorials.map { name in
    .executableTarget(name: name, dependencies: ["GStreamer", "TutorialSupport"], path: "Examples/Tutorials/\(name)")
}

// libFuzzer targets over the parsers of GstPipeParsing (scripts/fuzz.sh builds them with
// -sanitize=fuzzer,address and runs them on their corpus in Fuzz/corpus/NAME). Built plainly, as `swift build`
// does, each runs the files it is given once: a finding replayed without the fuzzer.
let fuzzTargets = ["FuzzDescription", "FuzzOffers", "FuzzUsersFile", "FuzzURICredentials", "FuzzRedactor"]
package.targets += [
    // libFuzzer's driver, declared weak: present in a -sanitize=fuzzer build, null in a plain one.
    .systemLibrary(name: "CFuzzer", path: "Fuzz/CFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzer"], path: "Fuzz/FuzzSupport")
]
package.targets += fuzzTargets.map { name in
    .executableTarget(name: name, dependencies: ["GstPipeParsing", "FuzzSupport"], path: "Fuzz/\(name)")
}
