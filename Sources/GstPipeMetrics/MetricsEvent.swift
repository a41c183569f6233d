import Foundation

/// One thing that happened in a run, with when: what `Metrics` hands its event handlers and what
/// `gstpipe --events FILE` writes, one JSON object a line (``jsonLine``).
public struct MetricsEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The pipeline started playing.
        case started
        /// The input stopped delivering (an error, its end, or silence); `reason` says which, without
        /// secrets.
        case inputLost(reason: String)
        /// The input delivers again, `after` its loss.
        case inputBack(after: Duration)
        /// A viewer started watching `output`; `viewers` watch it now.
        case viewerJoined(output: String, viewers: Int)
        /// A viewer of `output` went; `viewers` watch it now.
        case viewerLeft(output: String, viewers: Int)
        /// A recording was finished and renamed to `path`, `bytes` long.
        case recordingWritten(path: String, bytes: Int64)
        /// A recording was deleted to keep within the retention limits.
        case recordingDeleted(path: String, bytes: Int64)
        /// An error, from `element` when one posted it.
        case error(message: String, element: String?)
        /// The run ended with `exitStatus`.
        case stopped(exitStatus: Int32)

        /// The event's name in a JSON line: `started`, `input_lost`, `viewer_joined`, ...
        public var name: String {
            switch self {
            case .started: "started"
            case .inputLost: "input_lost"
            case .inputBack: "input_back"
            case .viewerJoined: "viewer_joined"
            case .viewerLeft: "viewer_left"
            case .recordingWritten: "recording_written"
            case .recordingDeleted: "recording_deleted"
            case .error: "error"
            case .stopped: "stopped"
            }
        }

        /// The event's own fields, in the order a JSON line gives them.
        var fields: [(String, JSONValue)] {
            switch self {
            case .started: []
            case .inputLost(let reason): [("reason", .string(reason))]
            case .inputBack(let after): [("after_seconds", .number(Metrics.seconds(after)))]
            case .viewerJoined(let output, let viewers), .viewerLeft(let output, let viewers):
                [("output", .string(output)), ("viewers", .number(Double(viewers)))]
            case .recordingWritten(let path, let bytes), .recordingDeleted(let path, let bytes):
                [("path", .string(path)), ("bytes", .number(Double(bytes)))]
            case .error(let message, let element):
                [("message", .string(message))] + (element.map { [("element", JSONValue.string($0))] } ?? [])
            case .stopped(let status): [("exit_status", .number(Double(status)))]
            }
        }
    }

    /// When it happened.
    public let time: Date
    /// What happened.
    public let kind: Kind

    /// An event that happened at `time`.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - time: When; now unless given.
    public init(_ kind: Kind, time: Date = Date()) {
        self.kind = kind
        self.time = time
    }

    /// The event as one line of JSON, without the newline: `time` (ISO 8601 in UTC, milliseconds),
    /// `event` (``Kind/name``), then the event's own fields, such as
    /// `{"time":"2026-11-28T06:00:00.000Z","event":"viewer_joined","output":"rtsp0","viewers":1}`.
    public var jsonLine: String {
        let fields = [("time", JSONValue.string(Self.isoTime(time))), ("event", .string(kind.name))] + kind.fields
        return "{" + fields.map { "\(JSONValue.string($0.0).text):\($0.1.text)" }.joined(separator: ",") + "}"
    }

    /// `time` in ISO 8601, UTC, with milliseconds.
    static func isoTime(_ time: Date) -> String {
        time.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}

/// A JSON string or number, written as JSON writes it.
enum JSONValue {
    case string(String)
    case number(Double)

    var text: String {
        switch self {
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.3f", value)
        case .string(let value):
            var out = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }
}
