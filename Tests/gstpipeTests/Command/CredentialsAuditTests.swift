import Foundation
import GstPipeParsing
import Synchronization
import Testing

@testable import gstpipe

/// What a careful user broke while auditing the credentials handling, read without a network: a password with an
/// unencoded `/`, `?` or `#`, a Basic header in gst-rtsp-server's message dump, GSTPIPE_RTSP_PASSWORD
/// with no user to ask it of, and users files that name a user twice, are directories or not text.
@Suite("Credentials audit: the secrets and users that slipped through")
struct CredentialsAuditTests {
    static let failure = URICredentialsTests.failure

    @Test("A password with an unencoded / ? or # is refused, hidden, and told to be percent-encoded")
    func unencodedPassword() {
        let uris = ["rtsp://alice:Pa/ss9word@h:8554/live", "rtsp://alice:Pa?ss9word@h/live", "rtsps://al:Pa#ss9w@h/x"]
        for uri in uris {
            let message = Self.failure { () throws(FileJob.Failure) in
                _ = try URICredentials.split(uri, environment: [:])
            }
            #expect(message?.contains("percent-encode them (%2F, %3F, %23)") == true, "\(message ?? "nil")")
            #expect(message?.contains("ss9w") == false, "\(message ?? "nil")")
            // The output's parse says the same (it said "cannot read …", the password in clear).
            let output = Self.failure { () throws(FileJob.Failure) in _ = try StreamOutputs.output(named: uri) }
            #expect(output?.contains("ss9w") == false && output?.contains("percent-encode") == true, "\(output ?? "")")
        }
        #expect(Secrets.redact("read rtsp://alice:Pa/ss9word@h:8554/live as") == "read rtsp://alice:***@h:8554/live as")
        // A port and a path holding @ may be a password with a slash (alice:123/x@host): hidden. A path
        // whose @ follows a slash at once is not one.
        #expect(Secrets.redact("rtsp://host:8554/a@b") == "rtsp://host:***@b")
        #expect(Secrets.redact("http://host:8080/@user?x") == "http://host:8080/@user?x")
        #expect(throws: Never.self) { try URICredentials.split("rtsp://host:8554/a@b", environment: [:]) }
    }

    @Test("Basic credentials, as gst-rtsp-server's message dump prints them, are hidden; other words stay")
    func basicHeader() {
        let b64 = Data("alice:BasicPw5".utf8).base64EncodedString()
        let dumped = "key: 'Authorization', value: 'Basic \(b64)'"
        #expect(Secrets.redact(dumped) == "key: 'Authorization', value: 'Basic ***'")
        #expect(Secrets.redact("Authorization: Basic \(b64)\r\n") == "Authorization: Basic ***\r\n")
        #expect(Secrets.redact("which Basic authentication cannot check") == "which Basic authentication cannot check")
    }

    @Test("GSTPIPE_RTSP_PASSWORD with an rtsp:// output naming no user is refused, not served to anyone")
    func passwordWithoutUser() throws {
        let output = try #require(try StreamOutputs.output(named: "rtsp://0.0.0.0:8554/live") as? RTSPOutput)
        let message = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPAccess(
                output.address, settings: StreamSettings(), environment: ["GSTPIPE_RTSP_PASSWORD": "x1y2z3"],
                environmentPasswordTaken: false)
        }
        #expect(message?.hasPrefix("GSTPIPE_RTSP_PASSWORD is set, but rtsp://0.0.0.0:8554/live names no user") == true)
        #expect(message?.contains("x1y2z3") == false)
        let open = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPAccess(output.address, settings: StreamSettings(), environment: [:])
        }
        #expect(open == nil)
        // Relaying a camera: `rtsp://admin@camera/… ! rtsp://0.0.0.0:8554/relay` with the variable set for
        // the input was refused, and unsetting it would have broken the input.
        _ = try URICredentials.split("rtsp://admin@camera/s", environment: ["GSTPIPE_RTSP_PASSWORD": "x1y2z3"])
        let taken = URICredentials.environmentPasswordTaken.load(ordering: .relaxed)
        #expect(taken)
        let relay = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPAccess(
                output.address, settings: StreamSettings(), environment: ["GSTPIPE_RTSP_PASSWORD": "x1y2z3"],
                environmentPasswordTaken: true)
        }
        #expect(relay == nil)
    }

    @Test("An IPv6 address with an @ further on is no password; Basic credentials in any case are hidden")
    func reviewEdges() throws {
        let uri = "rtsp://[::1]:8554/live?x=a@b"
        #expect(Secrets.redact(uri) == uri)
        let split = try URICredentials.split(uri, environment: [:])
        #expect(split.uri == uri && split.credentials == nil)
        // base64 of "alice:s3cr3t" and of "bob:" + 0xFF 0xFE (not UTF-8)
        #expect(Secrets.redact("Authorization: basic YWxpY2U6czNjcjN0") == "Authorization: basic ***")
        #expect(Secrets.redact("Authorization: BASIC Ym9iOv/+") == "Authorization: BASIC ***")
    }

    @Test("A users file naming a user twice, a directory, or not UTF-8 text is refused, saying which")
    func usersFiles() throws {
        let twice = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPUser.parse("alice:first-pw\r\n# x\nalice:second-pw\n", file: "users")
        }
        #expect(twice == "users, lines 1 and 3 both name alice: keep one of them")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o700)
        let directory = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: folder.path) }
        #expect(directory?.hasSuffix("is a directory: give --rtsp-users a file of user:password lines") == true)
        let binary = folder.appendingPathComponent("users").path
        _ = FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x3A, 0x61, 0x0A]))
        chmod(binary, 0o600)
        let notText = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: binary) }
        #expect(notText == "the users file \(binary) is not UTF-8 text: write it as user:password lines")
        // A link to a good file, a FIFO (refused at once, not waited on), another user's file, one others may write.
        let good = folder.appendingPathComponent("good").path
        _ = FileManager.default.createFile(atPath: good, contents: Data("bob:b0b-pass\n".utf8))
        chmod(good, 0o600)
        #expect(try RTSPUser.read(file: good).map(\.name) == ["bob"])
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: good)
        let linked = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: link) }
        #expect(
            linked?.hasSuffix(
                "is a symbolic link: give --rtsp-users the file itself, so that whoever can "
                    + "change the link cannot choose who watches") == true, "\(linked ?? "")")
        let fifo = folder.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let started = ContinuousClock.now
        let piped = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: fifo) }
        #expect(piped == "the users file \(fifo) is not a regular file (a FIFO, socket or device): give a file")
        #expect(ContinuousClock.now - started < .seconds(1))
        chmod(good, 0o620)
        let writable = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: good) }
        #expect(writable?.contains("is open to other users (mode 620)") == true, "\(writable ?? "")")
        chmod(good, 0o600)
        try #require(chown(good, 65534, 65534) == 0)
        let foreign = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.read(file: good) }
        #expect(
            foreign == "the users file \(good) belongs to user 65534, not to this one (\(geteuid())): chown it, "
                + "so that nobody else can change who watches")
    }

    @Test("auth=basic over plain rtsp:// is warned of; over rtsps:// and with Digest it is not")
    func basicInClear() throws {
        let plain = try #require(
            try StreamOutputs.output(named: "rtsp://al:pw-basic-1@h:8554/live?auth=basic") as? RTSPOutput)
        let warning = try RTSPAccess(plain.address, settings: StreamSettings(), environment: [:]).warning
        #expect(warning?.hasPrefix("WARNING: auth=basic over rtsp:// sends each viewer's password in clear") == true)
        let digest = try #require(try StreamOutputs.output(named: "rtsp://al:pw-basic-1@h:8554/live") as? RTSPOutput)
        #expect(try RTSPAccess(digest.address, settings: StreamSettings(), environment: [:]).warning == nil)
    }

    @Test("The same user in the URI and in the users file is refused")
    func userInURIAndFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("users").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("alice:from-file\n".utf8))
        chmod(file, 0o600)
        let output = try #require(
            try StreamOutputs.output(named: "rtsp://alice:uri-pw-1@0.0.0.0:8554/live") as? RTSPOutput)
        var settings = StreamSettings()
        settings.rtspUsers = file
        let message = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPAccess(output.address, settings: settings, environment: [:])
        }
        #expect(
            message == "the user alice is both in rtsp://alice:***@0.0.0.0:8554/live and in \(file): keep one of them")
    }
}
