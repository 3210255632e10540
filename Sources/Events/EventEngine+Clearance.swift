import Fences

// `clearance` is no event source: it flags the `enter` and `approach` of a fence too low for the
// vehicle.
extension EventEngine {
    /// `true` when the fence's clearance is below `--vehicle-height`; nil otherwise (the field
    /// is left out of the event).
    func tooLow(_ fenceSettings: FenceSettings) -> Bool? {
        guard let height = settings.vehicleHeight, let clearance = fenceSettings.rules?.clearance,
            clearance < height
        else { return nil }
        return true
    }
}
