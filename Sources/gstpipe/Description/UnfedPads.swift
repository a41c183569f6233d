import MediaIO

/// Finds a description's element that nothing can ever feed: `gstpipe gray ! gray` and
/// `gstpipe videoconvert` would wait forever (gst-launch-1.0 waits too).
enum UnfedPads {
    /// "gray0's sink pad is not linked: nothing can feed it" for the first element of the description
    /// with an always-present sink pad left unlinked; nil when every one can be fed. A pad that
    /// GStreamer links later from another element's sometimes pad (`uridecodebin ! gray`: a delayed
    /// link, made when the pad appears) counts as fed, and request pads are made only when linked.
    static func message(for pipeline: Pipeline) -> String? {
        let elements = descriptionElements(in: pipeline)
        // gst_parse_launch waits for a sometimes pad by connecting to the element's pad-added signal.
        // So does a bin whose pads come later, which the file job links the same way (a `webrtc://`
        // input's, whose pads come with the publisher).
        let linksLater = elements.filter { element in
            (element is Bin || element.padTemplates.contains { $0.direction == .source && $0.presence == .sometimes })
                && element.hasHandlers(forSignal: "pad-added")
        }
        for element in elements {
            for pad in element.pads where pad.direction == .sink && !pad.isLinked {
                guard (pad.template?.presence ?? .always) == .always else { continue }
                if linksLater.contains(where: { $0 !== element }) { continue }
                return "\(element.name)'s \(pad.name) pad is not linked: nothing can feed it"
            }
        }
        return nil
    }

    /// The elements the description made, in the order it names them: the pipeline's children and
    /// those of its `( ... )` bins, not the insides of elements that are bins themselves (a Swift
    /// element's appsink, autovideosink's sink).
    private static func descriptionElements(in bin: Bin) -> [Element] {
        // A bin lists its children newest first.
        bin.children.reversed().flatMap { child -> [Element] in
            if child.factoryName == "bin", let inner = child as? Bin, !child.hasHandlers(forSignal: "pad-added") {
                return descriptionElements(in: inner)
            }
            return [child]
        }
    }
}
