import FuzzSupport
import GstPipeParsing

// A browser's SDP offer, as WHEP (`ViewerOffer`) and WHIP (`PublisherOffer`) read it before webrtcbin does:
// taken or refused with a reason, whatever it holds; a payload type taken fits RTP's 7 bits, since each
// viewer's payloader is made with it (`rtpvp8pay pt=N`).

let media = [
    WebRTCMedia(video: .vp8, audio: false), WebRTCMedia(video: .h264, audio: false),
    WebRTCMedia(video: .vp8, audio: true), WebRTCMedia(video: nil, audio: true)
]

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = Fuzzing.text(data, count)
    for sent in media {
        guard let offer = try? ViewerOffer(text, sending: sent) else { continue }
        for payloadType in [offer.videoPayloadType, offer.audioPayloadType].compactMap({ $0 })
        where !(0...127).contains(payloadType) {
            fatalError("\(text.debugDescription) gave the payload type \(payloadType) for \(sent.name)")
        }
        if !sent.video.isEmpty != (offer.videoPayloadType != nil) {
            fatalError("\(text.debugDescription) was taken for \(sent.name) without its video")
        }
    }
    if let offer = try? PublisherOffer(text) {
        if offer.sent.isEmpty || !offer.sent.allSatisfy(["video", "audio"].contains) {
            fatalError("\(text.debugDescription) was taken as sending \(offer.sent)")
        }
    }
    return 0
}

Fuzzing.main(testOneInput)
