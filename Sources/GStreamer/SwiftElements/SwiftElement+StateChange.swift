import CGStreamer
import CGStreamerShim

// GStreamer's state changes drive the implementation's lifecycle (ElementLifecycle), the same for every
// kind; the kind hears when its pads went inactive and when a run ended, to forget what it sent.
//
//   NULL → READY       initialize (a throw fails the change, with an error on the bus)
//   PLAYING → PAUSED   stop, before the element pauses (buffers then may not start it again)
//   PAUSED → PLAYING   start, unless the first data did already
//   PAUSED → READY     the pads are inactive: the kind resets, stop (once per start), the pool goes
//   READY → NULL       dispose, once per successful initialize

extension SwiftElement {
    /// The element's whole state change: the lifecycle around the parent class's part (GstBin's or
    /// GstElement's, which activates the pads and the children).
    func changeState(_ transition: GstStateChange) -> GstStateChangeReturn {
        let from = transition.rawValue >> 3
        let to = transition.rawValue & 0x7
        let (null, ready, paused, playing) = (
            GST_STATE_NULL.rawValue, GST_STATE_READY.rawValue, GST_STATE_PAUSED.rawValue, GST_STATE_PLAYING.rawValue
        )
        let implementation = core.implementation!

        switch (from, to) {
        case (null, ready):
            if let failure = core.lifecycle.initialize(implementation) {
                CGStreamerShim_element_post_error(core.element, 1, failure, nil)
                return GST_STATE_CHANGE_FAILURE
            }
        case (playing, paused):
            core.lifecycle.stopIfStarted(pausing: true, implementation)
        default:
            break
        }

        let result = CGStreamerShim_swift_element_parent_change_state(core.element, transition)
        if result == GST_STATE_CHANGE_FAILURE { return result }

        switch (from, to) {
        case (paused, playing):
            core.lifecycle.ensureStarted(byData: false, implementation)
        case (paused, ready):
            // The pads are inactive now: no render runs, and a push waiting downstream has returned.
            body.padsDeactivated()
            core.lifecycle.stopIfStarted(implementation)
            body.runEnded()
            core.pool.drop()
        case (ready, null):
            core.lifecycle.dispose(implementation)
        default:
            break
        }
        return result
    }
}
