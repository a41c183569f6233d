import Synchronization

/// Tells whether a MediaIO object implements a callback or leaves it to the protocol's default.
///
/// Swift cannot ask at run time whether a type implements a protocol requirement or inherits the
/// default from an extension. So the defaults that matter say so themselves: each calls ``ran(_:of:)``,
/// and an adapter that wants to know calls the requirement inside ``runsDefault(_:of:_:)``. The
/// answer holds for the object's type for good, so an adapter asks once per callback and remembers.
///
/// The probe is a task-local value: on GStreamer's streaming threads (no Swift task) it lives in
/// thread-local storage for the length of the call, so a default running on another thread, or one
/// of another object or requirement (a sink whose `render` calls a second sink's default), is not
/// mistaken for the one asked about.
struct DefaultCallbackProbe: Sendable {
    /// A requirement whose default reports itself.
    enum Requirement: Sendable {
        case render, renderRawData
    }

    /// What is being asked, and whether the default ran.
    private final class Question: Sendable {
        let object: ObjectIdentifier
        let requirement: Requirement
        let defaultRan = Atomic<Bool>(false)

        init(object: ObjectIdentifier, requirement: Requirement) {
            self.object = object
            self.requirement = requirement
        }
    }

    @TaskLocal private static var question: Question?

    /// Called by a default implementation: `requirement` of `object` is the default, if anyone asks.
    static func ran(_ requirement: Requirement, of object: AnyObject) {
        guard let question, question.requirement == requirement, question.object == ObjectIdentifier(object)
        else { return }
        question.defaultRan.store(true, ordering: .relaxed)
    }

    /// Runs `call` (which calls `requirement` on `object`) and says whether the default implementation ran.
    static func runsDefault(
        _ requirement: Requirement, of object: AnyObject, _ call: () throws -> Void
    ) rethrows -> Bool {
        let question = Question(object: ObjectIdentifier(object), requirement: requirement)
        try $question.withValue(question, operation: call)
        return question.defaultRan.load(ordering: .relaxed)
    }
}
