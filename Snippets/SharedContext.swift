// Contexts: something elements share that no pad carries, here an HTTP session. An element asks for
// one on the bus (need-context); when nobody answers, it makes its own and offers it (have-context).
// The pipeline keeps what was offered and gives it to the elements that ask later; the application
// sees both messages, and answers from its sync handler when it holds a context of that type itself.
import GStreamer
import Synchronization

// snippet.hide
try GStreamer.initialize()
if !GStreamer.hasElement(named: "souphttpsrc") {
    print("souphttpsrc is missing (gstreamer1.0-plugins-good): nothing to share")
} else {
    // snippet.show
    let pipeline = try Pipeline(
        launch: "souphttpsrc name=first location=http://127.0.0.1:9/a ! fakesink "
            + "souphttpsrc name=second location=http://127.0.0.1:9/b ! fakesink")
    let shared = Mutex<Context?>(nil)
    let log = Mutex<[String]>([])
    // The sync handler runs on the posting thread, so the asking element has its answer before it goes on.
    pipeline.setSyncHandler { posted in
        switch posted.message {
        case .needContext(let source, let type):
            let answer = shared.withLock { $0 }.flatMap { $0.type == type ? $0 : nil }
            if let answer, let asker = posted.sourceElement { asker.setContext(answer) }
            log.withLock { $0.append("\(source ?? "?") asks for \(type)\(answer == nil ? "" : ", answered")") }
        case .haveContext(let source, let context):
            shared.withLock { $0 = context }
            log.withLock { $0.append("\(source ?? "?") offers \(context.type)") }
        default: break
        }
        return .pass
    }
    // Going to PAUSED opens the sessions; the connections (to a closed port) are not the point here.
    _ = try? pipeline.setState(.paused)
    let holders = ["first", "second"].filter { pipeline.element(named: $0)?.context(ofType: "gst.soup.session") != nil }
    let kept = pipeline.context(ofType: "gst.soup.session")
    pipeline.stop()
    print(log.withLock { $0 }.joined(separator: "\n"))
    print("sources holding a session: \(holders); the pipeline keeps one: \(kept != nil)")
    // snippet.hide
    let steps = log.withLock { $0 }
    precondition(steps.contains { $0.contains("asks for gst.soup.session") }, "no need-context seen: \(steps)")
    precondition(steps.contains { $0.contains("offers gst.soup.session") }, "no have-context seen: \(steps)")
    precondition(holders == ["first", "second"], "a source holds no session context: \(holders)")
    precondition(kept?.type == "gst.soup.session", "the pipeline kept no session context")
}
