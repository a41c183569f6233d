// The names the Swift element machinery had before it stopped calling itself a bridge. Kept for one
// release so that code written against them still builds, with a warning naming the new name.

/// The former name of ``SwiftElement``.
@available(*, deprecated, renamed: "SwiftElement")
public typealias BridgeElement = SwiftElement

/// The former name of ``ElementImplementation``.
@available(*, deprecated, renamed: "ElementImplementation")
public typealias BridgeDelegate = ElementImplementation

/// The former name of ``SwiftElementKind``.
@available(*, deprecated, renamed: "SwiftElementKind")
public typealias BridgeKind = SwiftElementKind

extension Element {
    /// The former name of ``swiftElement``.
    @available(*, deprecated, renamed: "swiftElement")
    public var bridge: SwiftElement? { swiftElement }
}
