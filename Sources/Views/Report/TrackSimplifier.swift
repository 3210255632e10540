/// Douglas-Peucker on points already projected to the drawing's units: keeps every point that
/// lies farther than `tolerance` from the line through the points kept around it, so the drawn
/// track loses nothing visible while a 10-hour, 10 Hz drive shrinks to what the page can show.
/// Iterative (an explicit stack), so long straight runs cannot overflow the call stack.
enum TrackSimplifier {
    static func keep(_ xs: [Double], _ ys: [Double], tolerance: Double) -> [Int] {
        let count = xs.count
        guard count > 2 else { return Array(0..<count) }
        var kept = [Bool](repeating: false, count: count)
        kept[0] = true
        kept[count - 1] = true
        var stack: [(Int, Int)] = [(0, count - 1)]
        let limit = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let ax = xs[first]
            let ay = ys[first]
            let dx = xs[last] - ax
            let dy = ys[last] - ay
            let length = dx * dx + dy * dy
            var worst = -1.0
            var worstIndex = first
            for index in (first + 1)..<last {
                let px = xs[index] - ax
                let py = ys[index] - ay
                var distance: Double
                if length == 0 {
                    distance = px * px + py * py
                } else {
                    let t = max(0, min(1, (px * dx + py * dy) / length))
                    let ex = px - t * dx
                    let ey = py - t * dy
                    distance = ex * ex + ey * ey
                }
                if distance > worst {
                    worst = distance
                    worstIndex = index
                }
            }
            if worst > limit {
                kept[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return kept.indices.filter { kept[$0] }
    }
}
