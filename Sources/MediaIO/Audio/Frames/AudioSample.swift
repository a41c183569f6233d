/// A Swift type audio samples are read and written as: `Int16` for S16LE, `Int32` for S32LE, `Float`
/// for F32LE, `Double` for F64LE, `UInt8` for U8. Reading a frame as the wrong type is an error, not
/// noise.
public protocol AudioSample: BitwiseCopyable, Sendable, Equatable {
    /// The sample format this type reads.
    static var sampleFormat: AudioSampleFormat { get }
    /// The value of silence: 0, or 128 for `UInt8`.
    static var silence: Self { get }
}

extension Int16: AudioSample {
    /// S16LE.
    public static var sampleFormat: AudioSampleFormat { .s16 }
    /// Zero.
    public static var silence: Int16 { 0 }
}

extension Int32: AudioSample {
    /// S32LE.
    public static var sampleFormat: AudioSampleFormat { .s32 }
    /// Zero.
    public static var silence: Int32 { 0 }
}

extension Float: AudioSample {
    /// F32LE.
    public static var sampleFormat: AudioSampleFormat { .f32 }
    /// Zero.
    public static var silence: Float { 0 }
}

extension Double: AudioSample {
    /// F64LE.
    public static var sampleFormat: AudioSampleFormat { .f64 }
    /// Zero.
    public static var silence: Double { 0 }
}

extension UInt8: AudioSample {
    /// U8.
    public static var sampleFormat: AudioSampleFormat { .u8 }
    /// 128, the middle of the unsigned range.
    public static var silence: UInt8 { 128 }
}
