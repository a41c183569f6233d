/// Errors of the MediaIO layer.
public struct MediaIOError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words for the user.
    public var description: String

    /// An error saying `description`.
    ///
    /// - Parameter description: What went wrong, in words for the user.
    public init(_ description: String) {
        self.description = description
    }
}
