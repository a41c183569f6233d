import ArgumentParser

/// The command line's options for running unattended: `--metrics` and `--events`.
struct MetricsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://HOST:PORT/metrics and the input's health at /healthz (200 while it "
                + "delivers, else 503), such as 127.0.0.1:9100.",
            valueName: "host:port"))
    var metrics: String?

    @Option(
        help: ArgumentHelp(
            "Append one JSON object a line to FILE (- for standard output) for each thing that happens: started, "
                + "input lost and back, viewer joined and left, recording written and deleted, error, stopped.",
            valueName: "FILE"))
    var events: String?

    /// Refuses an address that is not HOST:PORT. Called by the command after its own checks.
    func check() throws {
        if let metrics {
            do {
                _ = try MetricsAddress(metrics)
            } catch {
                throw ValidationError(error.message)
            }
        }
        if events?.isEmpty == true {
            throw ValidationError("--events takes a file to append to, or - for standard output.")
        }
    }

    /// The address to serve at, once `check()` has passed.
    var address: MetricsAddress? { metrics.flatMap { try? MetricsAddress($0) } }
}

/// Where `--metrics` listens: HOST:PORT, with HOST an IPv4 address, a name, or an IPv6 address in brackets.
struct MetricsAddress: Sendable, Equatable {
    let host: String
    let port: Int

    struct Invalid: Error {
        let message: String
    }

    init(_ text: String) throws(Invalid) {
        let advice =
            "--metrics takes HOST:PORT, such as 127.0.0.1:9100 (or 0.0.0.0:9100 for every address), not \(text)"
        guard let colon = text.lastIndex(of: ":") else { throw Invalid(message: advice) }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == "@" || $0.isWhitespace }),
            host.contains(":") == text[..<colon].hasPrefix("[")
        else { throw Invalid(message: advice) }
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            throw Invalid(message: advice + ": the port is a number from 1 to 65535")
        }
        (self.host, self.port) = (host, port)
    }

    /// As a URL's authority: IPv6 in brackets.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
