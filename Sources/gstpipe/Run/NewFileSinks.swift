import Foundation
import MediaIO

/// The files the description's own `filesink`s create: filesink opens its file on the way to PAUSED,
/// before any data, so a run that fails before writing anything (an input with no pictures, a damaged
/// file) would leave an empty file behind, which a user takes for a result. ffmpeg opens no output
/// when its input fails. The file job's own outputs are handled by `FileJobRun`; these are the
/// `filesink location=out.h264` a user wrote, for an extension gstpipe does not encode by name.
struct NewFileSinks {
    /// Locations that did not exist before the run.
    private let paths: [String]

    /// Reads, before the pipeline starts, which filesinks will create a new file.
    init(in pipeline: Pipeline) {
        paths = pipeline.allElements.compactMap { element in
            // gstpipe-output0 and the like: the file job's, which removes or finalizes them itself.
            guard element.factoryName == "filesink", !element.name.hasPrefix("gstpipe-"),
                let location = (try? element.get("location"))?.stringValue,
                !FileManager.default.fileExists(atPath: location)
            else { return nil }
            return location
        }
    }

    /// After a failed run: stops `pipeline`, then removes each of those files that is still empty, and
    /// says so. Stopped first: filesink keeps up to its buffer-size (64 KiB) to itself until it stops
    /// (or sees the end of stream), so a file that looks empty while it plays may hold data once stopped.
    func removeEmpty(stopping pipeline: Pipeline, note: (String) -> Void) {
        pipeline.stop()
        for path in paths {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0,
                (try? FileManager.default.removeItem(atPath: path)) != nil
            else { continue }
            note("removed \(path): nothing was written before the error")
        }
    }
}
