/// What `anim` knows of a subcommand before it runs: its name, its line in
/// `anim --help`, its `--help` text and the options it takes.
struct CommandInfo {
    let name: String
    let summary: String
    /// Usage lines and every option, shown by `anim COMMAND --help`.
    let usage: String
    let spec: OptionSpec
}
