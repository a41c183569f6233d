/// A description that cannot be run as written (exit 2), or a file that cannot be read or written
/// (exit 1). The message names the thing and says what to do. The command line knows it as
/// `FileJob.Failure`; it is defined here, beside the parsers that throw it.
package enum CommandFailure: Error {
    case usage(String)
    case runtime(String)
}
