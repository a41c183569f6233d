import GstPipeParsing
import MediaIO

/// An element for a file job to make in code: its factory and its properties. The encoders and
/// muxers of `OutputFormat` are kept as gst-launch-1.0 tokens (`x264enc pass=qual`, caps such as
/// `video/x-raw,format=I420`), a table that reads like the pipelines users write; `chain(_:)` reads
/// them into specs, and `make(named:in:)` makes the element with the core's API.
struct ElementSpec: Sendable {
    enum Value: Sendable {
        /// A value as gst-launch-1.0 writes it (`640`, `true`, an enum's nick), read by the property's type.
        case text(String)
        /// A string property's value as it is (a file name, a URI): never parsed, so no quoting.
        case string(String)
    }

    let factory: String
    var properties: [(name: String, value: Value)] = []

    init(_ factory: String, _ properties: [(name: String, value: Value)] = []) {
        self.factory = factory
        self.properties = properties
    }

    /// The elements of `tokens`, split at `!`: a caps token becomes a capsfilter, `name=value` a
    /// property of the element before it.
    static func chain(_ tokens: [String]) -> [ElementSpec] {
        var specs: [ElementSpec] = []
        for token in tokens where token != "!" {
            if token.contains("/") {
                specs.append(ElementSpec("capsfilter", [("caps", .text(token))]))
            } else if let equals = token.firstIndex(of: "="), !specs.isEmpty {
                let value = TokenReader.unquoted(String(token[token.index(after: equals)...]))
                specs[specs.count - 1].properties.append((String(token[..<equals]), .text(value)))
            } else {
                specs.append(ElementSpec(token))
            }
        }
        return specs
    }

    /// `name=value` tokens (`fragment-duration=1000`) as properties.
    static func properties(_ tokens: [String]) -> [(name: String, value: Value)] {
        tokens.compactMap { token in
            guard let equals = token.firstIndex(of: "=") else { return nil }
            return (String(token[..<equals]), .text(TokenReader.unquoted(String(token[token.index(after: equals)...]))))
        }
    }

    /// Makes the element, named `name` (nil: GStreamer numbers it), sets its properties and adds it
    /// to `bin`.
    func make(named name: String? = nil, in bin: Bin) throws(GStreamerError) -> Element {
        let element = try ElementFactory.make(factory, name: name)
        for (property, value) in properties {
            switch value {
            case .text(let text): try element.set(property, fromString: text)
            case .string(let string): try element.set(property, string)
            }
        }
        try bin.add(element)
        return element
    }
}
