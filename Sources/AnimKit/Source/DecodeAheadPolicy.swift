/// The tuning of decode-ahead, in one place: what each value trades. The
/// measurements that set them are in Tools/bench/RESULTS.md, "Decode-ahead tuning".
enum DecodeAheadPolicy {
    /// Data bytes or pixels below which a step, or a batch of steps, costs
    /// less to decode on the compositor's thread than to hand over (the
    /// smallest amounts at which small GIFs were never slower than one thread).
    static let minimum = (bytes: 8192, pixels: 16_384)
    /// The most bytes of one batch of small steps (unless one step needs
    /// more), and the most steps in one: enough work to pay for a hand-over,
    /// little enough that the compositor does not wait long for its first
    /// step. Also counted in `WorkingSet`.
    static let batch = (bytes: 256 << 10, steps: 32)
    /// How long, in nanoseconds, the compositor's thread polls for a
    /// decode to end before it sleeps: about what a small frame takes.
    static let spin: Int64 = 200_000
    /// How long, in nanoseconds, a worker stays awake for the next job
    /// while steps are taken this close together (read as fast as they
    /// decode): a thread that slept on a virtual machine took up to
    /// milliseconds to wake. A player's workers sleep between frames.
    static let warm: Int64 = 1_000_000
    /// Cores left to the compositor's thread: with a worker on every core,
    /// the compositor only waited.
    static let coresKept = 1
    /// A decode whose wall time is over `ratio` times its CPU time plus
    /// `slack` nanoseconds was kept off a core (another program busy):
    /// after `strikes` of them in a row, nothing is handed over for `pause`
    /// scheduling calls. Without it, small files decoded ahead with one
    /// core busy were slower than one thread (`Tools/bench/busy.sh`).
    static let starved = (ratio: Int64(2), slack: Int64(200_000), strikes: 3, pause: 32)
}
