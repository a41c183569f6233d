import Foundation
import GstPipeSupport
import Synchronization

/// The terminal under the ASCII-art preview (cacasink), which puts it in raw mode: no signal for
/// Ctrl-C, no line editing, no echo. This reads the keys a viewer answers to (Ctrl-C, q, Escape)
/// and gives the terminal back exactly as it found it on every way out, `exit` included.
final class TerminalPreview: Sendable {
    private let reading = Locked(false)
    private let finished = Locked(false)

    /// Remembers the terminal's modes; nil when neither standard input nor output is a terminal.
    init?() {
        let fd = isatty(STDIN_FILENO) == 1 ? STDIN_FILENO : isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : -1
        guard fd >= 0 else { return nil }
        var modes = termios()
        guard tcgetattr(fd, &modes) == 0 else { return nil }
        let first = savedTerminal.withLock { saved in
            defer { saved = (fd, modes) }
            return saved == nil
        }
        if first { atexit { restoreSavedTerminal() } }
    }

    /// Calls `onKey` on a thread of its own for each Ctrl-C, q or Escape typed, until `restore()`.
    /// Only when standard input is a terminal: keys from a pipe are not a viewer's.
    func readKeys(_ onKey: @escaping @Sendable (StopRequests.Reason) -> Void) {
        guard isatty(STDIN_FILENO) == 1 else { return }
        reading.withLock { $0 = true }
        Thread.detachNewThread { [self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            while reading.withLock({ $0 }) {
                var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                guard poller.revents & Int16(POLLIN) != 0 else { return }  // hung up
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                guard count > 0 else { return }
                for reason in Self.requests(in: bytes[..<count]) { onKey(reason) }
            }
        }
    }

    /// The stops asked for by the bytes one read gave. A lone Escape is the key; an Escape that
    /// starts a sequence (an arrow key: ESC [ A) is not.
    static func requests(in bytes: ArraySlice<UInt8>) -> [StopRequests.Reason] {
        if bytes.count == 1 && bytes.first == 0x1B { return [.quitKey] }
        return bytes.compactMap { byte in
            switch byte {
            case 0x03: .interruptKey
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): .quitKey
            default: nil
            }
        }
    }

    /// Stops reading keys and puts the terminal's modes back, with the cursor shown and colours reset.
    /// `abruptly`: the preview may still be drawing (the run stops without waiting for it), so the
    /// alternate screen it drew on is left too.
    func restore(abruptly: Bool = false) {
        reading.withLock { $0 = false }
        guard
            finished.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        restoreSavedTerminal(leavingAlternateScreen: abruptly)
    }
}

/// The terminal's descriptor and modes before the preview, for `atexit` (a second Ctrl-C exits
/// from a signal handler's queue, with the preview still drawing).
private let savedTerminal = Locked<(fd: Int32, modes: termios)?>(nil)

private func restoreSavedTerminal(leavingAlternateScreen: Bool = false) {
    guard let saved = savedTerminal.withLock({ $0 }) else { return }
    var modes = saved.modes
    tcsetattr(saved.fd, TCSADRAIN, &modes)
    // Attributes off, cursor shown: what the preview's drawing may have left when cut short.
    let reset = "\u{1B}[0m\u{1B}[?25h" + (leavingAlternateScreen ? "\u{1B}[?1049l" : "")
    _ = reset.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
}
