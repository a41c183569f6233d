/// A fraction, such as a frame rate of 30000/1001 (GST_TYPE_FRACTION).
public struct Fraction: Sendable, Hashable, CustomStringConvertible {
    /// The numerator (a frame rate's frames).
    public var numerator: Int
    /// The denominator (a frame rate's seconds); 0 makes the fraction undefined.
    public var denominator: Int

    /// `numerator/denominator`, as given (not reduced).
    ///
    /// - Parameters:
    ///   - numerator: The numerator.
    ///   - denominator: The denominator, normally positive.
    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The fraction as a number (`nil` for a zero denominator).
    public var doubleValue: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

    /// `numerator/denominator`, as GStreamer writes a fraction.
    public var description: String { "\(numerator)/\(denominator)" }
}
