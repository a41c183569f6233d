import ArgumentParser
import Foundation
import GstPipeSupport
import MediaIO

/// Where `autovideosink` shows video: a window when there is a display, else GStreamer's colour
/// ASCII-art sink (cacasink) when there is a terminal, else nowhere (a headless sink that keeps the
/// clock, with a note). `--preview` chooses explicitly.
enum Preview: String, CaseIterable, ExpressibleByArgument {
    case window, terminal, none

    static var hasDisplay: Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(ProcessEnvironment.value($0) ?? "").isEmpty }
    }

    static var hasTerminal: Bool {
        let term = ProcessEnvironment.value("TERM") ?? ""
        return isatty(STDOUT_FILENO) == 1 && !term.isEmpty && term != "dumb"
    }

    /// What `autovideosink` becomes when nothing was asked for.
    static var automatic: Preview { hasDisplay ? .window : hasTerminal ? .terminal : .none }

    /// Replaces each autovideosink as the mode asks; returns the mode used, nil when there was none.
    /// Throws a one-line message when the mode cannot work here.
    static func apply(_ requested: Preview?, to pipeline: Pipeline, note: (String) -> Void) throws(FileJob.Failure)
        -> Preview?
    {
        let sinks = pipeline.allElements.filter { $0.factoryName == "autovideosink" }
        guard !sinks.isEmpty else { return nil }
        let mode = requested ?? automatic
        switch mode {
        case .window:
            guard hasDisplay else {
                throw .runtime(
                    "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset): use --preview terminal "
                        + "or --preview none, or run under a desktop or Xvfb")
            }
            return .window
        case .terminal:
            guard GStreamer.hasElement(named: "cacasink") else {
                throw .runtime(
                    "the terminal preview needs cacasink: sudo apt-get install gstreamer1.0-plugins-good")
            }
            if requested == nil {
                note("no display (DISPLAY and WAYLAND_DISPLAY are unset): previewing in the terminal")
            }
        case .none:
            if requested == nil {
                note("no display (DISPLAY and WAYLAND_DISPLAY are unset): autovideosink runs headless, showing nothing")
            }
        }
        for sink in sinks {
            let replacement: Element
            do {
                if mode == .terminal {
                    replacement = try Bin(description: "videoconvert ! cacasink")
                } else {
                    replacement = try Element(factory: "fakesink")
                    try replacement.set("sync", true)
                }
                try pipeline.replace(sink, with: replacement)
            } catch {
                throw .runtime("cannot replace \(sink.name) for the \(mode.rawValue) preview: \(error.message)")
            }
        }
        return mode
    }
}
