import Testing

/// The time limit of every suite of this target: a test that waits forever (on a pipeline that never ends,
/// an end of stream that never comes) is cancelled after 3 minutes and fails naming itself, and the run
/// goes on to its end and exits, where the test process would otherwise stay alive without a trace.
/// The waits of the tests honour cancellation (message, sample and player event sequences end).
extension SuiteTrait where Self == TimeLimitTrait {
    static var bounded: Self { .timeLimit(.minutes(3)) }
}
