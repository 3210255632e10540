import Presentation

/// Fences used far from where they should be: a file written `[lat, lon]` instead of GeoJSON's
/// `[lon, lat]` loads (its latitudes are plausible longitudes) and then never matches; the wrong
/// fence file, or a point in the wrong place, looks the same. One point is enough to tell.
public enum FencePlausibility {
    /// Farther than this from every fence, a point is worth a warning.
    public static let farMetres = 100_000.0

    /// A warning about `set` used at (`lat`, `lon`), or nil when a fence is within `farMetres` of
    /// it. O(fences): asked once per command (the point of `check`, the first fix of a run).
    public static func warning(_ set: FenceSet, lat: Double, lon: Double) -> String? {
        guard lat.isFinite, lon.isFinite, let nearest = set.nearestFences(lat: lat, lon: lon, count: 1).first,
            nearest.distance > farMetres
        else { return nil }
        let place = "(\(lat), \(lon))"
        if abs(lon) <= 90, let swapped = set.nearestFences(lat: lon, lon: lat, count: 1).first,
            swapped.distance <= max(1000, nearest.distance / 1000)
        {
            return "the fences look like they have latitude and longitude swapped: \(place) is "
                + "\(HumanText.distance(nearest.distance)) from the nearest fence, but (\(lon), \(lat)) only "
                + "\(HumanText.distance(swapped.distance)); GeoJSON positions are [lon, lat] (docs/fences.md)"
        }
        return "every fence is more than \(HumanText.distance(nearest.distance)) from \(place): "
            + "the wrong fence file, or the point in the wrong place?"
    }
}
