import Fences
import NMEA

/// A fence rule of docs/fences.md ("Rules") as the engine applies it: one value that holds its
/// per-fence state, looks at each fix (raising its events through the engine's `append`), and
/// says what it foresees. Every requirement must be answered by every rule (none has a default),
/// so a new rule fails to compile until it has said how it takes fences out of play, what it does
/// before and after a fix's own events, what a new visit resets, and what it foresees. A rule runs
/// once its fence rule names it (`FenceRuleKind.engineRule`), and the foresight asks the same list.
///
/// Rules are judged on fix time, so a replay gives the same events as the drive. A rule keeps its
/// arrays at their working size from the start: looking at a fix allocates nothing unless it
/// raises an event.
protocol EngineRule: AnyObject {
    /// The rule for `fences`; nil when no fence carries it, so that it costs nothing per fix.
    init?(fences: FenceSet)

    /// Whether `fence` takes part in containment, crossing, approach and speed at this fix.
    func play(of fence: Int) -> FencePlay

    /// Before the fix is looked at (the fences containing it are known, nothing else has moved).
    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine)

    /// The receiver entered `fence` at this fix: a new visit.
    func entered(_ fence: Int)

    /// Whether the `exit` of `fence`, which the receiver is inside of, waits at this usable fix
    /// (fix time `now`, ms): `beyond` says whether the fix is beyond the fence's exit distance.
    /// Asked for every fence the receiver is inside of, at every usable fix, whether or not the
    /// engine would leave it now, so that a rule can follow the run of fixes beyond.
    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool

    /// After the fix's exits, enters, crossings and approaches.
    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine)

    /// Narrows `ahead` to the fixes after the last one in which this rule cannot raise an event
    /// or change which fences are in play: a timer with `due`, anything it cannot judge with
    /// `foreseeNone`.
    func foresee(_ ahead: inout FixesAhead, engine: EventEngine)
}

/// What the rules say of a fence at a fix.
enum FencePlay {
    /// It counts as usual.
    case inPlay
    /// It counts again from this fix (a window that opened): it is evaluated as at start, so a
    /// receiver already in it is told with an initial `enter`.
    case cameIntoPlay
    /// It takes no part: outside its window, or expired.
    case outOfPlay
}
