import Platform

/// What a point query needs of the corridors beyond their vertices, worked out once when the set
/// is built: for each corridor, how far in longitude its segments' cover boxes reach past their
/// ends (`CorridorWidening.dlon` at the corridor's steepest latitude, as the grid's boxes are
/// widened). With it the query's box test takes no sine or cosine; 4 bytes a corridor.
struct CorridorReach {
    /// Degrees of longitude, rounded up to a `Float`: never narrower than the grid's boxes.
    let longitude: [Float]

    init(_ store: CorridorStore) {
        var longitude = [Float](repeating: 0, count: store.count)
        for c in 0..<store.count {
            let r = store.radius[c]
            var steepest = 0.0
            for l in store.firstLine[c]..<store.firstLine[c + 1] {
                for v in store.vertices(ofLine: l).dropLast() {
                    if let span = corridorSegmentSpan(store, v, radius: r) {
                        steepest = max(steepest, abs(span.south), abs(span.north))
                    }
                }
            }
            let dlon = CorridorWidening(delta: r / Geodesy.earthRadius, steepest: steepest).dlon
            var rounded = Float(dlon)
            if Double(rounded) < dlon { rounded = rounded.nextUp }
            longitude[c] = rounded
        }
        self.longitude = longitude
    }
}

/// The two numbers of a corridor's radius that its segments' exact test needs, computed as
/// `CorridorSegment.init` computes them; a query keeps the last radius's (most candidates in a
/// cell are segments of one corridor, and a country's roads have a handful of radii).
struct CorridorRadiusTerms {
    var radius = -1.0
    var chordSquared = 0.0
    var crossLimit = 0.0

    @inline(__always)
    mutating func use(_ r: Double) {
        guard r != radius else { return }
        radius = r
        chordSquared = Geodesy.chordSquared(radius: r)
        let delta = min(r / Geodesy.earthRadius, Double.pi)
        crossLimit = delta >= Double.pi / 2 ? 2 : sin(delta)
    }
}

extension CorridorStore {
    /// Degrees of latitude a radius of one metre widens a box by.
    static let degreesPerMetre = 1 / (Geodesy.earthRadius * Geodesy.degree)

    /// How far the corridor with the largest radius widens a box in latitude, for
    /// `candidate(_:pointLon:pointLat:largestWidening:reach:)`.
    var largestLatitudeWidening: Double { largestRadius * Self.degreesPerMetre * (1 + 1e-9) + 1e-9 }

    /// The corridor of segment `v` when the point may lie within its radius of the segment, else
    /// -1: false only outside its cover box, with the bound of `corridorSegmentCover` (θ² of rise,
    /// the corridor's `CorridorReach` in longitude). The common road segment takes no division
    /// and no trigonometry; others take `corridorSegmentMayHold`'s exact box. The latitudes are
    /// checked first, for the largest radius, before the segment's corridor is looked up: most
    /// candidates lie north or south.
    @inline(__always)
    func candidate(
        _ v: Int, pointLon: Double, pointLat: Double, largestWidening: Double, reach: CorridorReach
    ) -> Int {
        // the vertices to within 10^-13 degrees: the boxes' margins of 10^-9 cover it
        let latA = lat.approximate(v)
        let latB = lat.approximate(v + 1)
        let lonA = lon.approximate(v)
        var step = lon.approximate(v + 1) - lonA
        if step > 180 { step -= 360 } else if step < -180 { step += 360 }
        let dLat = abs(latB - latA)
        guard abs(latA) <= 80, abs(latB) <= 80, dLat <= 1, abs(step) <= 1 else {
            guard corridorSegmentLatitudeMayHold(self, v, radius: largestRadius, lat: pointLat) else { return -1 }
            let c = corridor(ofVertex: v)
            return corridorSegmentMayHold(self, v, radius: radius[c], lon: pointLon, lat: pointLat) ? c : -1
        }
        // θ²/degree for θ = (dLat + |step|)·degree
        let x = dLat + abs(step)
        let rise = x * x * Geodesy.degree
        let south = min(latA, latB) - rise
        let north = max(latA, latB) + rise
        if pointLat < south - largestWidening || pointLat > north + largestWidening { return -1 }
        let c = corridor(ofVertex: v)
        let r = radius[c]
        guard r <= 60_000 else {
            return corridorSegmentMayHold(self, v, radius: r, lon: pointLon, lat: pointLat) ? c : -1
        }
        let widening = r * Self.degreesPerMetre * (1 + 1e-9) + 1e-9
        if pointLat < south - widening || pointLat > north + widening { return -1 }
        let dlon = Double(reach.longitude[c])
        let west = min(lonA, lonA + step) - dlon
        let east = max(lonA, lonA + step) + dlon
        // the box may run past ±180: its part beyond, brought round
        if pointLon >= west && pointLon <= east { return c }
        if west < -180 && pointLon >= west + 360 { return c }
        if east > 180 && pointLon <= east - 360 { return c }
        return -1
    }

    /// Segment `v` prepared for the exact test alone (no cap around it: the caller has checked
    /// its cover box), with its radius's `terms`.
    @inline(__always)
    func segmentForQuery(_ v: Int, _ terms: CorridorRadiusTerms) -> CorridorSegment {
        CorridorSegment(
            a: CorridorSegment.unit(lon: lon[v], lat: lat[v]),
            b: CorridorSegment.unit(lon: lon[v + 1], lat: lat[v + 1]),
            chordSquared: terms.chordSquared, crossLimit: terms.crossLimit)
    }
}
