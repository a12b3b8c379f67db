/// The tuning of decode-ahead, in one place: each value says what it
/// trades and which measurement set it. The figures, the commands and the
/// dates are in Tools/bench/RESULTS.md, section "Decode-ahead tuning".
enum DecodeAheadPolicy {
    /// Data bytes or pixels below which a step, or a batch of steps, costs
    /// less to decode on the compositor's thread than to hand over. Handing
    /// every step over alone made the small GIFs of the benchmark set slower
    /// than one thread; these were the smallest amounts that never did.
    static let minimum = (bytes: 8192, pixels: 16_384)
    /// The most bytes of one batch of small steps (unless one step needs
    /// more), and the most steps in one: enough work per hand-over to pay
    /// for it, few enough that the compositor does not wait long for the
    /// first step of a batch. Also counted in `WorkingSet`.
    static let batch = (bytes: 256 << 10, steps: 32)
    /// How long, in nanoseconds, the compositor's thread polls for a
    /// decode to end before it sleeps: about what a small frame takes, so
    /// that a thread woken late does not cost more than the decode.
    static let spin: Int64 = 200_000
    /// How long, in nanoseconds, a worker stays awake for the next job
    /// while steps are taken this close together (reading as fast as
    /// they decode); a player, a frame every few tens of milliseconds,
    /// lets its workers sleep. A thread that slept on a virtual machine
    /// took up to milliseconds to wake.
    static let warm: Int64 = 1_000_000
    /// Cores left to the compositor's thread: the workers take at most
    /// the cores less this many at once. With a worker on every core the
    /// compositor only waited, three threads on two cores.
    static let coresKept = 1
    /// A decode whose wall time is over `ratio` times its CPU time plus
    /// `slack` nanoseconds was kept off a core (another program busy):
    /// after `strikes` of them in a row, nothing is handed over for `pause`
    /// scheduling calls, then it is tried again. With one core kept busy,
    /// decoding ahead without this rule made small files slower than one
    /// thread (`Tools/bench/busy.sh`).
    static let starved = (ratio: Int64(2), slack: Int64(200_000), strikes: 3, pause: 32)
}
