import ArgumentParser
import Foundation
import GstPipeElements
import MediaIO

extension GstPipeCommand {
    /// `gstpipe inspect [NAME]`: the Swift elements, or one element's properties.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the Swift elements, or show the properties of one element (Swift or GStreamer).",
            discussion: """
                Examples:
                  gstpipe inspect
                  gstpipe inspect gray
                  gstpipe inspect videotestsrc
                """)

        @Argument(help: "An element name, such as gray or videotestsrc.")
        var name: String?

        func run() throws {
            try GstPipeElements.register()
            guard let name else {
                print("Swift elements:")
                let names = ElementType.registeredNames()
                let width = names.map(\.count).max() ?? 0
                for element in names {
                    print(
                        "  \(element.padding(toLength: width, withPad: " ", startingAt: 0)) \(ElementType.longName(of: element) ?? "")"
                    )
                }
                print("\nRun gstpipe inspect NAME for an element's properties.")
                return
            }
            guard let element = try? Element(factory: name) else {
                // gst-discoverer-1.0's habit (inspect a file) would otherwise read "erroneous pipeline".
                if FileManager.default.fileExists(atPath: name) {
                    printError(
                        "\(name) is a file, not an element: inspect shows an element's properties (gstpipe inspect "
                            + "gray); gstpipe -v \(name) ! fakesink prints the caps of the streams it holds")
                    throw ExitCode(ExitStatus.usage)
                }
                printError(UnknownElement(name: name).message)
                throw ExitCode(ExitStatus.usage)
            }
            print("\(name): \(element.longName ?? "")")
            if let description = element.elementDescription { print("  \(description)") }
            print("\nProperties:")
            for property in element.properties() where property.name != "name" && property.name != "parent" {
                print("  \(property.name.padding(toLength: 20, withPad: " ", startingAt: 0)): \(property.blurb)")
                var details = "  \(String(repeating: " ", count: 20))  \(property.typeName)"
                if let range = property.range { details += ". Range: \(range)" }
                details += ". Default: \(property.defaultValue)"
                if !property.writable { details += " (read only)" }
                print(details)
            }
        }
    }
}
