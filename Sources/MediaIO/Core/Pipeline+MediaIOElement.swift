extension Pipeline {
    /// The MediaIO source, sink or filter object behind the Swift element named `name`, as `type`:
    /// how an application reaches the very object a launch description made (to push frames into it,
    /// or read what it collected). Nil when there is no such element or it is of another type.
    /// Video and audio alike. Example: `Examples/PushMode`.
    ///
    /// - Parameters:
    ///   - name: The element's name in the pipeline (`name=` in a launch description).
    ///   - type: The source, sink or filter class `make` returned when the element type was registered.
    /// - Returns: The object, or nil.
    public func mediaIOElement<T: AnyObject>(named name: String, as type: T.Type) -> T? {
        switch element(named: name)?.swiftElement?.implementation {
        case let adapter as any AnyMediaIOAdapter: return adapter.mediaIOObject as? T
        default: return nil
        }
    }
}
