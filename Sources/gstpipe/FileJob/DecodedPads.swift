import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// Links the decoding source's pads as they appear (uridecodebin's pad-added, on a streaming
/// thread): the first stream of the description's kind to the decoded converter, and the input's
/// audio to each audio branch still waiting for it until the branches are decided (`closeAudio`,
/// at the first no-more-pads). Each is linked once: a chained file's later streams are not linked
/// again (their caps may differ from what the encoders started with).
final class DecodedPads: Sendable {
    private struct State {
        var decodedLinked = false
        var audioClosed = false
    }

    private let state = Locked(State())
    private let decodedInput: Pad
    private let media: MediaKind
    /// Held as long as the source holds its handler: the branches outlive their removal from the bin.
    let branches: [FileJobElements.AudioBranch]

    init(decodedInput: Pad, media: MediaKind, branches: [FileJobElements.AudioBranch]) {
        self.decodedInput = decodedInput
        self.media = media
        self.branches = branches
    }

    /// Links `pad` where its stream goes, if anywhere; a stream that cannot link (no decoder: caps
    /// that are not raw) stays unlinked, as do streams of other kinds (subtitles).
    func link(_ pad: Pad) {
        guard let type = pad.currentCaps?.mediaType ?? pad.queryCaps().mediaType else { return }
        state.withLock { state in
            if type.hasPrefix("\(media)/") {
                guard !state.decodedLinked else { return }
                state.decodedLinked = (try? pad.link(to: decodedInput)) != nil
            } else if media == .video && type.hasPrefix("audio/") && !state.audioClosed {
                for branch in branches {
                    guard let input = branch.converter.pad(named: "sink"), !input.isLinked else { continue }
                    // The branch is in the pipeline; the source may be in a `( ... )` bin.
                    if (try? pad.linkAcrossBins(to: input)) != nil { return }
                }
            }
        }
    }

    /// No audio branch is linked from now on: each has got the input's audio or been taken out.
    func closeAudio() {
        state.withLock { $0.audioClosed = true }
    }
}
