/// What tmux says about itself and the terminal it runs in. Inside tmux, `TERM`
/// names tmux and variables such as `KITTY_WINDOW_ID` are the server's (maybe
/// from another terminal): the client's name and features are the better
/// witnesses.
public struct TmuxClient: Equatable, Sendable {
    /// `allow-passthrough` is `on` or `all` for this pane.
    public var passthrough: Bool
    /// `#{client_termname}`: the outer terminal's `TERM` (`xterm-kitty`).
    public var termName: String
    /// `#{client_termfeatures}`: what tmux uses of it (`RGB`, `sixel`, …).
    public var features: [String]

    /// What tmux said, as values.
    public init(passthrough: Bool, termName: String, features: [String]) {
        self.passthrough = passthrough
        self.termName = termName
        self.features = features
    }

    /// The commands run, each bounded by the deadline.
    static let passthroughCommand = ["tmux", "show-options", "-Apv", "allow-passthrough"]
    static let clientCommand = ["tmux", "display-message", "-p", "#{client_termname} #{client_termfeatures}"]

    /// Asks the tmux server of `environment` (its `TMUX`), both commands at
    /// once, for at most `timeoutMs`: nil when tmux did not answer in time
    /// or cannot be run. The pane's setting wins (`show-options -A`).
    public static func query(
        environment: [String: String], timeoutMs: Int = 50, clock: any Clock<Duration> = SuspendingClock()
    ) -> TmuxClient? {
        let out = BoundedCommand.run(
            [passthroughCommand, clientCommand], environment: environment, timeoutMs: timeoutMs, clock: clock)
        return parse(passthrough: out[0], client: out[1])
    }

    /// The two commands' outputs read; nil when the client line is missing.
    static func parse(passthrough: [UInt8]?, client: [UInt8]?) -> TmuxClient? {
        guard let client else { return nil }
        let line = String(decoding: client.prefix(4096), as: UTF8.self).split(separator: "\n").first ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        let name = parts.first.map(String.init) ?? ""
        let features = parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : []
        let value =
            passthrough.map { String(decoding: $0.prefix(64), as: UTF8.self) }?
            .split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? ""
        return TmuxClient(passthrough: value == "on" || value == "all", termName: name, features: features)
    }
}
