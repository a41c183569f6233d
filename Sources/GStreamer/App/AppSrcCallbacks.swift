import CGStreamer
import GstPipeSupport
import Synchronization

/// The Swift handlers of one appsrc, kept on the GObject itself (as qdata, released with it), so every
/// wrapper of the same appsrc shares them and setting one handler keeps the others.
final class AppSrcCallbacks: Sendable {
    struct Handlers {
        var needData: (@Sendable (Int) -> Void)?
        var enoughData: (@Sendable () -> Void)?
        var seekData: (@Sendable (UInt64) -> Bool)?
    }
    let handlers = Locked(Handlers())
    private static let installing = Locked(())
    private static let quark = g_quark_from_string("gstpipe-appsrc-callbacks")

    /// The handlers of `appsrc`, installed with `gst_app_src_set_callbacks` the first time.
    static func of(_ appsrc: AppSrc) -> AppSrcCallbacks {
        installing.withLock { _ in
            let object = UnsafeMutablePointer<GObject>(OpaquePointer(appsrc.pointer))
            if let existing = g_object_get_qdata(object, quark) {
                return Unmanaged<AppSrcCallbacks>.fromOpaque(existing).takeUnretainedValue()
            }
            let callbacks = AppSrcCallbacks()
            let box = Unmanaged.passRetained(callbacks).toOpaque()
            g_object_set_qdata_full(object, quark, box) { box in
                Unmanaged<AppSrcCallbacks>.fromOpaque(box!).release()
            }
            var table = GstAppSrcCallbacks()
            table.need_data = { _, length, box in
                let handler = Unmanaged<AppSrcCallbacks>.fromOpaque(box!).takeUnretainedValue().handlers.withLock(
                    \.needData)
                handler?(length == guint.max ? -1 : Int(length))
            }
            table.enough_data = { _, box in
                Unmanaged<AppSrcCallbacks>.fromOpaque(box!).takeUnretainedValue().handlers.withLock(\.enoughData)?()
            }
            table.seek_data = { _, offset, box in
                let handler = Unmanaged<AppSrcCallbacks>.fromOpaque(box!).takeUnretainedValue().handlers.withLock(
                    \.seekData)
                return (handler?(UInt64(offset)) ?? true) ? 1 : 0
            }
            // The qdata holds the box until the appsrc is finalized, after which no callback comes.
            gst_app_src_set_callbacks(appsrc.appSrcPointer, &table, box, nil)
            return callbacks
        }
    }
}
