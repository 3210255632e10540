import Platform

extension FenceSet {
    /// Candidate fences for `approach`: those whose indexed boxes meet the path from the point
    /// along `bearing` for `maxDistance` metres, ascending, each once. No allocation once `hits`
    /// has grown to its working size. The exact test is `distanceAlongRay`.
    package func fences(aheadOfLat lat: Double, lon: Double, bearing: Double, maxDistance: Double, into hits: FenceHits)
    {
        let claim = hits.writer.enter()
        defer { hits.writer.leave(claim) }
        hits.removeAll()
        // Both models of the path (the local plane `distanceAlongRay` uses for polygons, the
        // sphere for circles) end within centimetres of each other over a few kilometres; the
        // box covers both ends, padded by 1 % and 10 m.
        let plane = LocalPlane(lat0: lat, lon0: lon)
        let dx = sin(bearing * Geodesy.degree) * maxDistance
        let dy = cos(bearing * Geodesy.degree) * maxDistance
        let planeEndLat = lat + dy / plane.ky
        let planeEndLon = lon + dx / plane.kx
        let sphereEnd = Geodesy.destination(lat: lat, lon: lon, bearing: bearing, distance: maxDistance)
        var sphereEndLon = sphereEnd.lon
        if sphereEndLon - lon > 180 { sphereEndLon -= 360 } else if sphereEndLon - lon < -180 { sphereEndLon += 360 }
        let pad = maxDistance * 0.01 + 10
        let padLat = pad / plane.ky
        let padLon = pad / plane.kx
        let minY = max(-90, min(lat, planeEndLat, sphereEnd.lat) - padLat)
        let maxY = min(90, max(lat, planeEndLat, sphereEnd.lat) + padLat)
        var minX = min(lon, planeEndLon, sphereEndLon) - padLon
        var maxX = max(lon, planeEndLon, sphereEndLon) + padLon
        if maxX - minX >= 360 {
            minX = -180
            maxX = 180
        }
        if minX < -180 {
            candidates(in: BoundingBox(minX: minX + 360, minY: minY, maxX: 180, maxY: maxY), into: hits)
            minX = -180
        }
        if maxX > 180 {
            candidates(in: BoundingBox(minX: -180, minY: minY, maxX: maxX - 360, maxY: maxY), into: hits)
            maxX = 180
        }
        candidates(in: BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY), into: hits)
        hits.sortUnique()
    }
}
