import Synchronization

/// Every password this run was given (in a URI, a users file, the environment), so that what gstpipe
/// writes can be cleaned of them as a last line of defence: error and progress text, `--graph`
/// pictures (which show element properties such as rtspsrc's `user-pw`). Messages name URIs masked
/// in the first place (`URICredentials.masked`); this catches what comes from GStreamer itself.
enum Secrets {
    private static let known = Mutex<Set<String>>([])

    /// Remembers `secret` (ignored when empty).
    static func remember(_ secret: String) {
        guard !secret.isEmpty else { return }
        known.withLock { _ = $0.insert(secret) }
    }

    /// `text` with every remembered secret replaced by `***`, longest first (a secret inside another
    /// is not left half shown).
    static func masked(_ text: String) -> String {
        let secrets = known.withLock { $0 }
        guard !secrets.isEmpty else { return text }
        return secrets.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}
