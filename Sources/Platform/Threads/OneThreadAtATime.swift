import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The threading contract "used by one thread at a time", checked in a debug build: a value whose
/// state is unguarded (`@unchecked Sendable`) because its callers take turns (the engine's turn,
/// one producer and one consumer of a ring, a queue of its own) holds one of these and brackets
/// each use with `enter` and `leave`. A second thread entering while another is inside stops the
/// program there, naming the value, instead of corrupting it silently. The same thread may enter
/// again inside its own use (a sink's `deliver` calling its own `observe`).
///
/// A release build keeps nothing and checks nothing: the bracket costs no instruction where the
/// benchmarks measure. Threads are told apart by `pthread_self`.
public struct OneThreadAtATime: ~Copyable, Sendable {
    /// What `enter` hands to `leave`: whether that call claimed the value (false for a nested use,
    /// whose `leave` must not end the outer one).
    public struct Claim: Sendable {
        #if DEBUG
            fileprivate let claimed: Bool
        #endif
    }

    #if DEBUG
        private let holder = Atomic<UInt>(0)
        private let name: StaticString
    #endif

    /// `name` is what the stop says: the type and the side, e.g. "SPSCRing.push".
    public init(_ name: StaticString) {
        #if DEBUG
            self.name = name
        #endif
    }

    /// Claims the value for the calling thread; in a debug build, stops the program when another
    /// thread holds it.
    @inline(__always)
    public func enter(file: StaticString = #fileID, line: UInt = #line) -> Claim {
        #if DEBUG
            let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
            let (claimed, holding) = holder.compareExchange(expected: 0, desired: me, ordering: .acquiring)
            if !claimed && holding != me {
                preconditionFailure(
                    "\(name) is used by two threads at once, against its threading contract", file: file, line: line)
            }
            return Claim(claimed: claimed)
        #else
            return Claim()
        #endif
    }

    /// Lets the value go after a use that `enter` began.
    @inline(__always)
    public func leave(_ claim: Claim) {
        #if DEBUG
            if claim.claimed { holder.store(0, ordering: .releasing) }
        #endif
    }
}
