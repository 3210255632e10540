import ArgumentParser
import LiveLoop

extension ValidationError {
    /// An option problem found while the options are checked, said in its own words with the
    /// usage lines the argument parser adds (exit status 2, `GPSFence.main`).
    init(_ problem: OptionProblem) { self.init(InputError.option(problem).description) }
}
