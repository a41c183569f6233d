import Foundation
import MediaIO

/// With no display, autovideosink would try window sinks that cannot open (gst-launch-1.0 1.22 even
/// segfaults there). Each autovideosink becomes a headless sink that keeps the clock, with a note.
enum HeadlessFallback {
    static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    static func apply(to pipeline: Pipeline, note: (String) -> Void) throws {
        guard !hasDisplay else { return }
        for element in pipeline.allElements where element.factoryName == "autovideosink" {
            let replacement = try Element(factory: "fakesink")
            try replacement.set("sync", true)
            let name = element.name
            try pipeline.replace(element, with: replacement)
            note("no display (DISPLAY and WAYLAND_DISPLAY are unset): \(name) runs headless, showing nothing")
        }
    }
}
