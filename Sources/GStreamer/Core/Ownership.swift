import CGStreamer

// How the core owns GStreamer's C objects held by pointer, said once. Caps, events and tag lists are
// GstMiniObjects: one reference count, and writable only while nobody else holds a reference, so one
// set of calls serves them all. A GstStructure has no reference count: it is owned outright, freed and
// copied. The class wrappers (Caps, Event) adopt `MiniObjectWrapper`; the value types (Structure,
// TagList) keep their object in a `CopyOnWrite`.

/// A C type the core owns by pointer: how one is released and copied, and whether it may be written
/// in place.
protocol OwnedCObject {
    /// Gives up the owner's hold on `object` (an unref, or a free).
    static func release(_ object: UnsafeMutablePointer<Self>)
    /// A new object equal to `object`, owned by the caller.
    static func copy(_ object: UnsafePointer<Self>) -> UnsafeMutablePointer<Self>
    /// True when nobody but the owner holds `object`, so it may be changed in place.
    static func isWritable(_ object: UnsafeMutablePointer<Self>) -> Bool
}

/// A kind of GstMiniObject. Every kind shares GstMiniObject's reference counting, which the C API
/// spells once per kind (`gst_caps_ref`, `gst_event_ref`, ...) as inline functions over the same calls.
protocol MiniObject: OwnedCObject {}

extension MiniObject {
    private static func base(_ object: UnsafeMutablePointer<Self>) -> UnsafeMutablePointer<GstMiniObject> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstMiniObject.self)
    }

    /// Adds a reference to `object` and returns it, for an owner that takes it over.
    static func retain(_ object: UnsafeMutablePointer<Self>) -> UnsafeMutablePointer<Self> {
        gst_mini_object_ref(base(object))
        return object
    }

    static func release(_ object: UnsafeMutablePointer<Self>) {
        gst_mini_object_unref(base(object))
    }

    static func copy(_ object: UnsafePointer<Self>) -> UnsafeMutablePointer<Self> {
        // Every kind the core wraps has a copy function, so the copy is never NULL.
        let copied = gst_mini_object_copy(UnsafeRawPointer(object).assumingMemoryBound(to: GstMiniObject.self))!
        return UnsafeMutableRawPointer(copied).assumingMemoryBound(to: Self.self)
    }

    static func isWritable(_ object: UnsafeMutablePointer<Self>) -> Bool {
        gst_mini_object_is_writable(base(object)) != 0
    }
}

extension GstCaps: MiniObject {}
extension GstEvent: MiniObject {}
extension GstTagList: MiniObject {}

extension GstStructure: OwnedCObject {
    static func release(_ object: UnsafeMutablePointer<GstStructure>) { gst_structure_free(object) }
    static func copy(_ object: UnsafePointer<GstStructure>) -> UnsafeMutablePointer<GstStructure> {
        gst_structure_copy(object)
    }
    /// Always: a structure the core owns has no other holder.
    static func isWritable(_ object: UnsafeMutablePointer<GstStructure>) -> Bool { true }
}

/// A class wrapper that owns one reference to a mini-object, taken over by `init(taking:)` and released
/// in its `deinit`; `init(borrowing:)` adds the reference for a pointer the caller keeps.
protocol MiniObjectWrapper: AnyObject {
    associatedtype Object: MiniObject
    init(taking pointer: UnsafeMutablePointer<Object>)
}

extension MiniObjectWrapper {
    /// Wraps `pointer` with a reference of its own; the caller keeps its reference.
    init(borrowing pointer: UnsafeMutablePointer<Object>) {
        self.init(taking: Object.retain(pointer))
    }
}

/// The C object behind a Swift value type (Structure, TagList): released with the last copy of the
/// value, and copied before a write while another value, or GStreamer, shares it.
struct CopyOnWrite<Object: OwnedCObject>: @unchecked Sendable {
    // The object is written only through `writablePointer()`, that is while this box is uniquely
    // referenced and the object writable, so it is never changed while shared across threads.
    private final class Box {
        let pointer: UnsafeMutablePointer<Object>
        init(_ pointer: UnsafeMutablePointer<Object>) { self.pointer = pointer }
        deinit { Object.release(pointer) }
    }

    private var box: Box

    /// Takes over `pointer` (one reference, or the object itself).
    init(taking pointer: UnsafeMutablePointer<Object>) {
        box = Box(pointer)
    }

    /// The object, to read.
    var pointer: UnsafeMutablePointer<Object> { box.pointer }

    /// The object, to write: a private copy first when it is shared.
    mutating func writablePointer() -> UnsafeMutablePointer<Object> {
        if !isKnownUniquelyReferenced(&box) || !Object.isWritable(box.pointer) {
            box = Box(Object.copy(box.pointer))
        }
        return box.pointer
    }

    /// True when both hold the very same object (a cheap first test of equality).
    func isIdentical(to other: CopyOnWrite) -> Bool { box === other.box }
}
