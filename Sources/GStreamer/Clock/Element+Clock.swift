import CGStreamer
import CGStreamerShim

// Running time: what synchronization counts in. An element's running time is its clock's time minus
// its base time; a pipeline sets the base time of every element as it goes to PLAYING, and moves it
// forward by the time spent PAUSED, so running time stands still while paused.

extension Element {
    /// The clock the element uses, when it has one (a pipeline hands its clock out as it goes to
    /// PLAYING; nil before).
    ///
    /// The corresponding C function is `gst_element_get_clock`.
    public var clock: Clock? {
        gst_element_get_clock(pointer).map { Clock(taking: $0) }
    }

    /// The clock time at which the element's running time is 0. A pipeline sets it on its elements;
    /// set it yourself only on an element whose state is locked or that you synchronize by hand.
    ///
    /// The corresponding C functions are `gst_element_get_base_time` and `gst_element_set_base_time`.
    public var baseTime: ClockTime {
        get { ClockTime(gst_element_get_base_time(pointer)) }
        set { gst_element_set_base_time(pointer, GstClockTime(newValue)) }
    }

    /// The running time the element had when it last went to PAUSED, from which it resumes; nil when
    /// the pipeline manages no start time (it was set to GST_CLOCK_TIME_NONE to keep the base time as
    /// it is). A flushing seek sets it to 0.
    ///
    /// The corresponding C functions are `gst_element_get_start_time` and `gst_element_set_start_time`.
    public var startTime: ClockTime? {
        get { optionalClockTime(gst_element_get_start_time(pointer)) }
        set { gst_element_set_start_time(pointer, clockTimeValue(newValue)) }
    }

    /// The element's running time now: its clock's time minus its base time. Nil when it has no clock
    /// (not PLAYING yet) or no base time.
    ///
    /// The corresponding C function is `gst_element_get_current_running_time`.
    public var currentRunningTime: ClockTime? {
        optionalClockTime(gst_element_get_current_running_time(pointer))
    }

    /// The element's clock's time now; nil when it has no clock.
    ///
    /// The corresponding C function is `gst_element_get_current_clock_time`.
    public var currentClockTime: ClockTime? {
        optionalClockTime(gst_element_get_current_clock_time(pointer))
    }
}

extension Pipeline {
    /// The clock the pipeline uses, or would select now if it went to PLAYING (always one: the system
    /// clock at least).
    ///
    /// The corresponding C function is `gst_pipeline_get_clock`.
    public var pipelineClock: Clock {
        Clock(taking: gst_pipeline_get_clock(pipelinePointer))
    }

    /// Makes the pipeline use `clock` instead of selecting one itself (a live source's, an audio
    /// sink's); nil makes it use no clock at all (everything runs as fast as it can). Takes effect at
    /// the next PAUSED to PLAYING; ``autoClock()`` undoes it.
    ///
    /// The corresponding C function is `gst_pipeline_use_clock`.
    ///
    /// - Parameter clock: The clock to use, or nil for none.
    public func useClock(_ clock: Clock?) {
        gst_pipeline_use_clock(pipelinePointer, clock?.pointer)
    }

    /// Lets the pipeline select its clock again, after ``useClock(_:)``.
    ///
    /// The corresponding C function is `gst_pipeline_auto_clock`.
    public func autoClock() {
        gst_pipeline_auto_clock(pipelinePointer)
    }

    private var pipelinePointer: UnsafeMutablePointer<GstPipeline> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstPipeline.self)
    }
}
