import Foundation
import MediaIO

/// `--stats`: what each Swift element did.
enum Statistics {
    /// Frames counted by the first Swift element in the pipeline, for the progress line.
    static func firstCounter(in pipeline: Pipeline) -> (@Sendable () -> Int?) {
        let swiftElements = pipeline.allElements.compactMap(\.swiftElement)
        // gst_bin_iterate_recurse goes from the last element added to the first: in a parsed
        // description, the last one found is the first Swift element written.
        guard let first = swiftElements.last else { return { nil } }
        return { max(first.statistics.framesIn, first.statistics.framesOut) }
    }

    static func report(for pipeline: Pipeline, wallTime: Duration) -> String {
        let elements = pipeline.allElements.filter { $0.swiftElement != nil }.reversed()
        guard !elements.isEmpty else { return "Statistics: the pipeline has no Swift elements." }
        var lines = [String(format: "Swift elements (run of %.2f s):", seconds(wallTime))]
        for element in elements {
            guard let statistics = element.swiftElement?.statistics else { continue }
            let frames = max(statistics.framesIn, statistics.framesOut)
            let active = seconds(statistics.activeTime)
            // An audio element's units are buffers, not frames.
            let isAudio = element.classification?.contains("Audio") ?? false
            let (unit, perSecond) = isAudio ? ("buffer", "buffers/s") : ("frame", "fps")
            let rate = active > 0 ? String(format: "%.1f \(perSecond)", Double(frames) / active) : "- \(perSecond)"
            let perFrame =
                frames > 0 ? String(format: "%.3f ms", seconds(statistics.timeInSwift) * 1000 / Double(frames)) : "-"
            lines.append(
                "  \(element.name): \(statistics.framesIn) \(unit)s in, \(statistics.framesOut) out, \(rate), "
                    + "\(perFrame) per \(unit) in Swift")
        }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
