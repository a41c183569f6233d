import CGStreamer

// A GstStructure made from, and read back as, its string form (`name, field=(type)value, ...`): the
// form custom events and queries are given in and print as. `Structure` is the typed value.
enum Structures {
    /// A new structure from `name` and `fields` (`"count=(int)3, label=hello"`), or an error naming
    /// what did not parse.
    static func make(name: String, fields: String) throws(GStreamerError) -> UnsafeMutablePointer<GstStructure> {
        let text = fields.isEmpty ? name : "\(name), \(fields)"
        guard let structure = gst_structure_from_string(text, nil) else {
            throw GStreamerError(kind: .invalidArgument, message: "could not parse the structure \"\(text)\"")
        }
        return structure
    }

    static func string(of structure: UnsafePointer<GstStructure>?) -> String? {
        structure.flatMap { String(takingGString: gst_structure_to_string($0)) }
    }

    static func name(of structure: UnsafePointer<GstStructure>?) -> String? {
        structure.flatMap { gst_structure_get_name($0) }.map { String(cString: $0) }
    }

    static func field(_ field: String, of structure: UnsafePointer<GstStructure>?) -> PropertyValue? {
        guard let structure, let value = gst_structure_get_value(structure, field) else { return nil }
        return GValues.read(value)
    }
}
