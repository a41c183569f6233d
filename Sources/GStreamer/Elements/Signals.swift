import CGStreamer
import CGStreamerShim

// Any GObject signal by name: connect a Swift closure (typed arguments in, a typed value out), emit
// action signals, watch property changes. The raw calls live in `enum Signals`; every
// `SignalEmitter` (Element, Pad) offers them by name.

/// A handler for a signal: the arguments after the instance, and what to return (`.void` when the
/// signal returns nothing).
public typealias SignalHandler = @Sendable ([SignalValue]) -> SignalValue

enum Signals {
    /// The Swift closure a GClosure carries, released when GLib finalizes the closure.
    private final class Box: Sendable {
        let handler: SignalHandler
        init(_ handler: @escaping SignalHandler) { self.handler = handler }
    }

    static func connect(
        _ instance: UnsafeMutableRawPointer, owner: String, _ signal: String, after: Bool,
        _ handler: @escaping SignalHandler
    ) throws(GStreamerError) -> SignalConnection {
        let id = CGStreamerShim_signal_connect(
            instance, signal,
            { data, returnValue, count, params in
                guard let data, let params else { return }
                let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                let arguments = (1..<Int(count)).map { SignalValue(params + $0) }
                let result = CallbackThread.during { box.handler(arguments) }
                // A value that does not fit the return type leaves GLib's default (zero, NULL).
                if let returnValue, returnValue.pointee.g_type != 0 { _ = result.write(into: returnValue) }
            },
            Unmanaged.passRetained(Box(handler)).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<Box>.fromOpaque(data).release()
            }, after ? 1 : 0)
        guard id != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "\(owner) has no signal \"\(signal)\"", source: owner)
        }
        return SignalConnection(instance: instance, id: UInt(id), signal: signal)
    }

    static func hasHandlers(_ instance: UnsafeMutableRawPointer, _ signal: String) -> Bool {
        var id: guint = 0
        var detail: GQuark = 0
        let known = g_signal_parse_name(signal, CGStreamerShim_object_type(instance), &id, &detail, 0) != 0
        return known && g_signal_has_handler_pending(instance, id, detail, 0) != 0
    }

    static func emit(
        _ instance: UnsafeMutableRawPointer, owner: String, _ signal: String, _ arguments: [SignalValue]
    ) throws(GStreamerError) -> SignalValue {
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signal, CGStreamerShim_object_type(instance), &id, &detail, 1) != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "\(owner) has no signal \"\(signal)\"", source: owner)
        }
        var query = GSignalQuery()
        g_signal_query(id, &query)
        guard Int(query.n_params) == arguments.count else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(owner)'s signal \"\(signal)\" takes \(query.n_params) arguments, not \(arguments.count)",
                source: owner)
        }
        var values = [GValue](repeating: GValue(), count: arguments.count + 1)
        defer { for index in values.indices where values[index].g_type != 0 { g_value_unset(&values[index]) } }
        g_value_init(&values[0], CGStreamerShim_object_type(instance))
        g_value_set_object(&values[0], instance)
        for (index, argument) in arguments.enumerated() {
            // The low bit of a parameter type is G_SIGNAL_TYPE_STATIC_SCOPE, not part of the type.
            let type = query.param_types[index] & ~GType(1)
            g_value_init(&values[index + 1], type)
            guard argument.write(into: &values[index + 1]) else {
                let typeName = g_type_name(type).map { String(cString: $0) } ?? "?"
                throw GStreamerError(
                    kind: .invalidArgument,
                    message:
                        "argument \(index + 1) of \(owner)'s signal \"\(signal)\" is a \(typeName), not \(argument)",
                    source: owner)
            }
        }
        let returnType = query.return_type & ~GType(1)
        var result = GValue()
        if returnType != CGStreamerShim_type_none() { g_value_init(&result, returnType) }
        defer { if result.g_type != 0 { g_value_unset(&result) } }
        g_signal_emitv(values, id, detail, &result)
        return result.g_type == 0 ? .void : SignalValue(&result)
    }
}
