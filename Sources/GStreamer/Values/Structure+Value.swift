import CGStreamer

// A structure's field as a Value, whatever its type: what FieldValue has no case for (a GError, a
// GstWebRTCSessionDescription, a GstPromise) read and written without going through a string form.

extension Structure {
    /// The field `field` as a ``Value`` of the field's own type (webrtcbin's reply to `create-offer`
    /// holds the offer, a `GstWebRTCSessionDescription`, in its "offer" field).
    ///
    /// The corresponding C function is `gst_structure_get_value`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: A copy of the field's value; nil when there is no such field.
    public func value(_ field: String) -> Value? {
        withUnsafeGstStructure { structure in gst_structure_get_value(structure, field).map { Value(copying: $0) } }
    }

    /// Sets the field `field` to `value`, of the value's own type.
    ///
    /// The corresponding C function is `gst_structure_set_value`.
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - value: The value to store (copied).
    public mutating func set(_ field: String, value: Value) {
        let structure = writablePointer()
        value.withUnsafeGValue { gst_structure_set_value(structure, field, $0) }
    }
}
