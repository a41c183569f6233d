import GstPipeSupport
import MediaIO
import Synchronization

/// What a noise source (`noise`, `audionoise`) keeps from `shouldInitialize` to `shouldDispose`: where
/// its buffers go, the format it negotiated on the first one, how many it made, its generator, and
/// the properties each buffer reads. A source makes each buffer inside ``withLock(_:)``, so the
/// generator's sequence (and so what a seed gives) follows the buffers' order.
final class NoiseRun<Consumer: Sendable, Format: Sendable, Settings: Sendable>: Sendable {
    struct State {
        var consumer: Consumer?
        var format: Format?
        var produced = 0
        var random = NoiseGenerator(seed: 0)
        /// The properties a buffer reads, and the element's `changeCount` they were read at.
        fileprivate var settings: (changeCount: Int, values: Settings)?

        /// The properties for the next buffer: read by `read` when none were read yet or one was set
        /// since (`properties.changeCount` moved), else those read before (reading a property takes a
        /// lock of the element's, a cost at the rate audio buffers go).
        mutating func settings(of properties: ElementProperties, _ read: () -> Settings) -> Settings {
            let changeCount = properties.changeCount
            if let settings, settings.changeCount == changeCount { return settings.values }
            let values = read()
            settings = (changeCount, values)
            return values
        }
    }

    private let state = Locked(State())

    /// A new run for `consumer` (`shouldInitialize`): nothing made yet, the generator seeded with
    /// `seed`, or at random when `seed` is negative (the `seed` property's -1, "a new seed each run").
    ///
    /// - Returns: True, what `shouldInitialize` returns.
    func begin(_ consumer: Consumer, seed: Int) -> Bool {
        let random = NoiseGenerator(seed: seed >= 0 ? UInt64(seed) : UInt64.random(in: .min ... .max))
        state.withLock { $0 = State(consumer: consumer, random: random) }
        return true
    }

    /// Lets go of the consumer and the run (`shouldDispose`).
    func end() {
        state.withLock { $0 = State() }
    }

    /// Runs `body` with the run's state, locked.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
