import Foundation

/// Prometheus' text exposition format (version 0.0.4), what Prometheus scrapes and `prometheus_client`'s
/// parser reads: for each family a `# HELP` and a `# TYPE` line, then its samples, one a line.
struct Exposition {
    /// The media type a scrape is answered with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// Starts a family: `type` is counter, gauge or histogram.
    mutating func family(_ name: String, _ type: String, help: String) {
        let help = help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// One sample of the family last started.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    /// A family of one sample per label set (or one sample with no labels).
    mutating func metric(
        _ name: String, _ type: String, help: String, _ samples: [([(String, String)], Double)]
    ) {
        family(name, type, help: help)
        for (labels, value) in samples { sample(name, labels, value) }
    }

    /// A histogram's samples: cumulative buckets up to +Inf, the sum and the count.
    mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: Histogram) {
        var cumulative = 0
        for (bound, count) in zip(histogram.bounds, histogram.counts) {
            cumulative += count
            sample(name + "_bucket", labels + [("le", Self.number(bound))], Double(cumulative))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], Double(histogram.count))
        sample(name + "_sum", labels, histogram.sum)
        sample(name + "_count", labels, Double(histogram.count))
    }

    /// A label value with backslash, double quote and newline escaped, as the format asks.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Whole numbers without a fraction (counts stay exact), others in Swift's shortest exact form,
    /// which Go's ParseFloat (Prometheus) and Python's float() read.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// Observations counted into buckets by upper bound, as a Prometheus histogram holds them.
struct Histogram: Sendable {
    let bounds: [Double]
    /// Per bucket, the observations above the previous bound up to this one (not cumulative).
    private(set) var counts: [Int]
    private(set) var sum = 0.0
    private(set) var count = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count)
    }

    mutating func observe(_ value: Double) {
        if let index = bounds.firstIndex(where: { value <= $0 }) { counts[index] += 1 }
        sum += value
        count += 1
    }
}
