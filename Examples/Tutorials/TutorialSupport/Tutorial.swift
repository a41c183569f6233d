import Foundation
import GStreamer

/// What the tutorials share: the clip they play when given no argument, and how they end. Each
/// tutorial checks its own result and exits 1 with "FAILED: <why>" when it does not hold.
public enum Tutorial {
    /// The media a tutorial plays.
    public struct Input: Sendable {
        /// Its URI (`file:///...`).
        public var uri: String
        /// Its path, for elements that read files (`filesrc`).
        public var path: String
        /// Its length, as the discoverer reads it.
        public var duration: ClockTime
        /// True for the clip generated when no argument was given (its content is known).
        public var isGenerated: Bool
    }

    /// Runs a tutorial: `body` gets the input (the first argument, a path or URI, or a clip of
    /// `seconds` generated into a temporary folder: 320x240 H.264 at 30 fps with a key frame every
    /// half second, and a 440 Hz stereo tone in Vorbis, in Matroska). Prints "OK" and exits 0
    /// when `body` returns; prints the error and exits 1 when it throws.
    ///
    /// - Parameters:
    ///   - seconds: The length of the clip generated when no argument is given.
    ///   - body: The tutorial, given its input.
    public static func run(seconds: Int = 3, _ body: (Input) async throws -> Void) async -> Never {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-tutorial-\(getpid())")
        await finish(cleaning: folder) {
            try await body(try await input(seconds: seconds, folder: folder))
        }
    }

    /// Runs a tutorial that needs no media file: prints "OK" and exits 0 when `body` returns; prints
    /// the error and exits 1 when it throws.
    ///
    /// - Parameter body: The tutorial.
    public static func run(_ body: () async throws -> Void) async -> Never {
        await finish(cleaning: nil, body)
    }

    static func finish(cleaning folder: URL?, _ body: () async throws -> Void) async -> Never {
        let status: Int32
        do {
            try await body()
            print("OK")
            status = 0
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("FAILED: \(failure.reason)\n".utf8))
            status = 1
        } catch {
            FileHandle.standardError.write(Data("FAILED: \(error)\n".utf8))
            status = 1
        }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        exit(status)
    }

    /// Why a tutorial's check failed.
    public struct Failure: Error {
        /// What did not hold.
        public var reason: String

        /// A failure saying `reason`.
        ///
        /// - Parameter reason: What did not hold.
        public init(reason: String) { self.reason = reason }
    }

    /// Throws a `Failure` saying `reason` unless `condition` holds.
    ///
    /// - Parameters:
    ///   - condition: What must hold.
    ///   - reason: What to say when it does not.
    /// - Throws: `Failure` when `condition` is false.
    public static func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(Failure) {
        if !condition { throw Failure(reason: reason()) }
    }

    /// `value`, unwrapped.
    ///
    /// - Parameters:
    ///   - value: What must not be nil.
    ///   - reason: What to say when it is.
    /// - Returns: The value.
    /// - Throws: `Failure` when `value` is nil.
    public static func require<T>(_ value: T?, _ reason: @autoclosure () -> String) throws(Failure) -> T {
        guard let value else { throw Failure(reason: reason()) }
        return value
    }

    /// A fake sink that renders on the clock, as a real display or sound card would, without needing
    /// either (the tutorials run headless).
    ///
    /// - Parameter name: The element's name; nil lets GStreamer name it.
    /// - Returns: A `fakesink` with `sync=true`.
    /// - Throws: `GStreamerError` when fakesink is missing.
    public static func clockedSink(name: String? = nil) throws -> Element {
        let sink = try ElementFactory.make("fakesink", name: name)
        try sink.set("sync", true)
        return sink
    }

    /// Nanoseconds as seconds, such as "1.500 s".
    ///
    /// - Parameter time: Nanoseconds; nil for unknown.
    /// - Returns: The seconds with three decimals, or "?".
    public static func seconds(_ time: ClockTime?) -> String {
        guard let time else { return "?" }
        return String(format: "%.3f s", Double(time) / 1e9)
    }

    /// The time since `start`, in nanoseconds.
    ///
    /// - Parameter start: An instant of the continuous clock.
    /// - Returns: Nanoseconds since then.
    public static func elapsed(since start: ContinuousClock.Instant) -> ClockTime {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return ClockTime(seconds) * 1_000_000_000 + ClockTime(attoseconds / 1_000_000_000)
    }

    private static func input(seconds: Int, folder: URL) async throws -> Input {
        let path: String
        if CommandLine.arguments.count > 1 {
            let argument = CommandLine.arguments[1]
            path = argument.hasPrefix("file://") ? String(argument.dropFirst("file://".count)) : argument
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("clip.mkv").path
            print("Generating a \(seconds) s clip: \(path)")
            try await Pipeline(
                launch:
                    "videotestsrc num-buffers=\(seconds * 30) ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 "
                    + "! x264enc speed-preset=ultrafast key-int-max=15 "
                    + "! matroskamux name=mux ! filesink location=\(path) "
                    + "audiotestsrc num-buffers=\(seconds * 100) samplesperbuffer=441 freq=440 "
                    + "! audio/x-raw,rate=44100,channels=2 ! audioconvert ! vorbisenc ! mux."
            ).run()
        }
        let uri = "file://" + (path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        let info = try await Discoverer().discover(uri: uri)
        guard let duration = info.duration else { throw Failure(reason: "\(uri) has no known duration") }
        return Input(uri: uri, path: path, duration: duration, isGenerated: CommandLine.arguments.count <= 1)
    }
}
