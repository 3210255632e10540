#!/usr/bin/env python3
"""Generate a country's road network as `gpsfence fences import --speed-limits` writes it, shaped
unlike `make_corridor_country.py`'s scattered lines of 15 vertices: cities, towns and villages
(clustered around the cities) whose streets cross at shared nodes, joined by winding country roads
and by motorways of two one-way carriageways.

- Ways share nodes: a street's ways meet the crossing streets at their common node, a country road
  starts and ends at a node of each settlement's streets, consecutive ways of one road share their
  end node (written with the same 7 decimals in both, as the import writes an OSM node).
- Ways vary from 2 vertices (a bridge, a stub) to hundreds (a country road, a motorway section);
  about 15 vertices a way on average.
- Properties in the import's order and forms: `name` (a street name, else `ref`, else the class),
  `speed_limit_kmh` and `maxspeed` as tagged (`30`, `DE:urban`, `walk`...), a few
  `maxspeed:conditional` (school streets) and `clearance`/`maxheight` (underpasses), `highway`,
  `oneway` (`yes`, `-1`; roundabouts and motorways), `bridge`/`tunnel` with `layer`, and `radius`
  from `width`, else `lanes` x 1.75 m, else the class.
- Ids `osm:way/N` ascending in file order, 9-10 digits as today's OSM ids, and the file order is
  the map's only in runs (an OSM file is sorted by id, and ids follow the mappers' edits):
  runs of up to 200 ways of one place, the runs in random order.

    python3 scripts/make_road_network.py --ways 1000000 --points 200000 --out-prefix bench-data/rn

writes PREFIX.geojson and PREFIX.points.csv ('lat,lon' a line: half within two radii of a road
vertex, half anywhere in the box) and prints the counts. Deterministic for a seed.
"""
import argparse
import math
import os
import random
import shutil
import tempfile

from country_arguments import add_country_arguments

M_PER_DEG = 111195.0

STREETS = [
    "Hauptstraße", "Bahnhofstraße", "Schulstraße", "Gartenstraße", "Dorfstraße", "Bergstraße",
    "Kirchstraße", "Lindenstraße", "Waldstraße", "Ringstraße", "Mühlenweg", "Am Markt",
    "Wiesenweg", "Goethestraße", "Schillerstraße", "Friedhofstraße", "Feldstraße", "Birkenweg",
    "Rosenstraße", "Poststraße", "Talstraße", "Am Bach", "Industriestraße", "Neue Straße",
    "Parkstraße", "Jahnstraße", "Eichenweg", "Sonnenstraße", "Ahornweg", "Tannenweg",
]
PREFIXES = ["", "Alte ", "Obere ", "Untere ", "Kleine ", "Große ", "Am ", "Im "]
STEMS = ["Lerchen", "Amsel", "Buchen", "Fichten", "Kastanien", "Holunder", "Weiden", "Erlen",
         "Hasel", "Kiefern", "Ulmen", "Eschen", "Tulpen", "Nelken", "Veilchen", "Mozart", "Beethoven",
         "Bismarck", "Kant", "Luther", "Stein", "Hof", "Anger", "Brunnen", "Kapellen", "Schloss",
         "Burg", "Sand", "Kies", "Wein", "Hopfen", "Korn", "Flachs", "Mühl", "Teich", "See", "Moor"]
SUFFIXES = ["straße", "weg", "gasse", "allee", "ring", "pfad", "steig", "platz"]
CITY_NAMES = ["Berliner", "Hamburger", "Münchner", "Kölner", "Frankfurter", "Leipziger", "Dresdner",
              "Hannoversche", "Nürnberger", "Stuttgarter", "Bremer", "Kasseler"]


def fmt(v):
    s = "%.7f" % v
    s = s.rstrip("0")
    return s[:-1] if s.endswith(".") else s


def number(v, decimals):
    """The import's numbers: rounded, shortest form, no trailing zeros."""
    return fmt(round(v, decimals)) if v != int(v) else str(int(v))


class Out:
    """Features go to one of many bucket files in runs, so the final file's order is the map's
    only within a run; `finish` concatenates the buckets with ascending ids."""

    def __init__(self, rng, points, seed):
        self.rng = rng
        self.dir = tempfile.mkdtemp(prefix="roadnet-")
        self.buckets = [open(os.path.join(self.dir, "b%03d" % k), "w", encoding="utf-8") for k in range(509)]
        self.bucket = self.buckets[0]
        self.left = 0
        self.ways = 0
        self.vertices = 0
        self.shared = 0
        self.longest = 0
        self.points = points
        self.near = []
        self.seen_vertices = 0
        self.prng = random.Random(seed + 1000)

    def way(self, nodes, props, radius):
        """nodes: (lat, lon, text) with text the formatted '[lon,lat]'."""
        if self.left == 0:
            self.bucket = self.rng.choice(self.buckets)
            self.left = self.rng.randint(1, 200)
        self.left -= 1
        self.ways += 1
        self.vertices += len(nodes)
        self.longest = max(self.longest, len(nodes))
        self.bucket.write('{"type":"LineString","coordinates":[%s]},"properties":{%s}}\n'
                          % (",".join(n[2] for n in nodes), props))
        # reservoir of road vertices for the near points
        for n in nodes:
            self.seen_vertices += 1
            if len(self.near) < self.points:
                self.near.append((n[0], n[1], radius))
            else:
                j = self.prng.randrange(self.seen_vertices)
                if j < self.points:
                    self.near[j] = (n[0], n[1], radius)

    def finish(self, path):
        for b in self.buckets:
            b.close()
        osm_id = 4_000_000 + self.rng.randrange(1000)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write('{"type":"FeatureCollection","features":[')
            first = True
            for k in range(len(self.buckets)):
                with open(os.path.join(self.dir, "b%03d" % k), encoding="utf-8") as bh:
                    for line in bh:
                        osm_id += self.rng.randint(1, 1990)
                        fh.write(('\n' if first else ',\n') + '{"type":"Feature","id":"osm:way/%d","geometry":%s'
                                 % (osm_id, line[:-1]))
                        first = False
            fh.write("\n]}\n")
        shutil.rmtree(self.dir)


def node(lat, lon):
    return (lat, lon, "[%s,%s]" % (fmt(lon), fmt(lat)))


def props(name, maxspeed, kmh, highway, radius, oneway=None, bridge=False, tunnel=False, conditional=None,
          clearance=None):
    """The properties in the import's order (OSMFenceTags, OSMRoadTags)."""
    parts = ['"name":"%s"' % name]
    if clearance is not None:
        parts.append('"clearance":%s,"maxheight":"%s"' % (number(clearance, 4), number(clearance, 2)))
    parts.append('"speed_limit_kmh":%s,"maxspeed":"%s"' % (number(kmh, 3), maxspeed))
    if conditional:
        parts.append('"maxspeed:conditional":"%s"' % conditional)
    parts.append('"highway":"%s"' % highway)
    if oneway:
        parts.append('"oneway":"%s"' % oneway)
    if bridge:
        parts.append('"bridge":"yes","layer":1')
    if tunnel:
        parts.append('"tunnel":"yes","layer":-1')
    parts.append('"radius":%s' % number(radius, 2))
    return ",".join(parts)


def radius_of(rng, highway):
    """From `width`, else `lanes`, else the class, as OSMFenceTags.wayRadius."""
    r = rng.random()
    if r < 0.08:
        return rng.choice((4.0, 5.5, 6.0, 6.5, 7.5, 9.0, 12.0)) / 2
    if r < 0.3:
        lanes = {"motorway": (2, 3, 4), "trunk": (2, 3), "primary": (2, 3, 4), "secondary": (2, 3)}.get(highway, (1, 2))
        return rng.choice(lanes) * 1.75
    if highway in ("motorway", "trunk"):
        return 7.0
    if highway in ("primary", "secondary"):
        return 5.25
    if highway in ("service", "track", "living_street"):
        return 2.75
    return 3.5


def street_name(rng):
    r = rng.random()
    if r < 0.45:
        return rng.choice(STREETS)
    if r < 0.9:
        return rng.choice(PREFIXES) + rng.choice(STEMS) + rng.choice(SUFFIXES)
    return rng.choice(CITY_NAMES) + " Straße"


def urban_speed(rng, highway):
    if highway in ("primary", "secondary"):
        return rng.choice((("50", 50), ("50", 50), ("DE:urban", 50), ("60", 60), ("70", 70), ("30", 30)))
    if highway == "living_street":
        return ("walk", 7)
    if highway == "service":
        return rng.choice((("10", 10), ("20", 20), ("walk", 7), ("30", 30)))
    return rng.choice((("30", 30), ("30", 30), ("30", 30), ("50", 50), ("DE:urban", 50), ("DE:zone30", 30),
                       ("20", 20)))


class Settlement:
    def __init__(self, lat, lon, radius, kind):
        self.lat, self.lon, self.radius, self.kind = lat, lon, radius, kind
        self.edges = []  # edge nodes, for the roads between settlements


def settle(rng, out, s):
    """A settlement's streets: a warped, rotated grid cut to a ragged disc; streets run through
    the grid's nodes (shared by the crossing streets) and are cut into ways of a few blocks."""
    spacing = rng.uniform(70, 110) if s.kind == "city" else rng.uniform(80, 150)
    theta = rng.uniform(0, math.pi)
    ct, st = math.cos(theta), math.sin(theta)
    warp = [(rng.uniform(0.05, 0.35) * spacing, rng.uniform(2, 8) * spacing, rng.uniform(0, 6.3)) for _ in range(2)]
    coslat = math.cos(s.lat * math.pi / 180)

    def place(x, y):
        x2 = x + warp[0][0] * math.sin(y / warp[0][1] + warp[0][2])
        y2 = y + warp[1][0] * math.sin(x / warp[1][1] + warp[1][2])
        ex = x2 * ct - y2 * st
        ny = x2 * st + y2 * ct
        return s.lat + ny / M_PER_DEG, s.lon + ex / (M_PER_DEG * coslat)

    n = int(s.radius / spacing) + 1
    grid = {}
    lobes = [rng.uniform(0.75, 1.25) for _ in range(8)]
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            x, y = i * spacing, j * spacing
            ang = math.atan2(y, x)
            lobe = lobes[int((ang + math.pi) / (2 * math.pi) * 8) % 8]
            if x * x + y * y > (s.radius * lobe) ** 2:
                continue
            jx = rng.uniform(-0.15, 0.15) * spacing
            jy = rng.uniform(-0.15, 0.15) * spacing
            lat, lon = place(x + jx, y + jy)
            grid[(i, j)] = (x + jx, y + jy, node(lat, lon))
    if not grid:
        lat, lon = s.lat, s.lon
        grid[(0, 0)] = (0.0, 0.0, node(lat, lon))
    # edge nodes: the farthest in each of eight directions
    best = {}
    for (i, j), (x, y, nd) in grid.items():
        octant = int((math.atan2(y, x) + math.pi) / (2 * math.pi) * 8) % 8
        d = x * x + y * y
        if octant not in best or d > best[octant][0]:
            best[octant] = (d, nd)
    s.edges = [v[1] for v in best.values()]
    arterial_every = rng.choice((5, 6, 7, 8))
    big = s.kind in ("city", "town")

    def street(keys, vertical, line_index):
        """The pieces of one grid line: runs of present nodes, some blocks dropped."""
        pieces, piece = [], []
        for k in keys:
            if k in grid and (not piece or rng.random() > 0.06):
                piece.append(k)
            else:
                if len(piece) >= 2:
                    pieces.append(piece)
                piece = [k] if k in grid else []
        if len(piece) >= 2:
            pieces.append(piece)
        arterial = line_index % arterial_every == 0
        for piece in pieces:
            if arterial:
                highway = rng.choice(("primary", "secondary")) if s.kind == "city" else (
                    "secondary" if big else "tertiary")
            else:
                highway = "living_street" if rng.random() < 0.03 else (
                    "unclassified" if rng.random() < 0.08 else "residential")
            name = street_name(rng) if (arterial or rng.random() < 0.88) else highway
            maxspeed, kmh = urban_speed(rng, highway)
            radius = radius_of(rng, highway)
            oneway = None
            if not arterial and rng.random() < 0.1:
                oneway = rng.choice(("yes", "yes", "-1"))
            a = 0
            while a < len(piece) - 1:
                blocks = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 14))
                b = min(len(piece) - 1, a + blocks)
                nodes = [grid[piece[a]][2]]
                for k in range(a, b):
                    x0, y0, _ = grid[piece[k]]
                    x1, y1, nd = grid[piece[k + 1]]
                    shape = rng.choice((0, 1, 1, 2, 3, 4, 5, 6)) if not arterial else rng.choice((1, 2, 3, 4, 6, 8))
                    for m in range(1, shape + 1):
                        t = m / (shape + 1)
                        wob = rng.uniform(-0.04, 0.04) * spacing
                        x = x0 + (x1 - x0) * t + (wob if vertical else 0)
                        y = y0 + (y1 - y0) * t + (0 if vertical else wob)
                        lat, lon = place(x, y)
                        nodes.append(node(lat, lon))
                    nodes.append(nd)
                    if k > a:
                        out.shared += 1
                tunnel = arterial and len(nodes) >= 3 and rng.random() < 0.01
                conditional = "30 @ (Mo-Fr 07:00-17:00)" if (not arterial and kmh > 30 and rng.random() < 0.01) else None
                clearance = round(rng.uniform(2.8, 4.2), 1) if (tunnel and rng.random() < 0.6) else None
                out.way(nodes, props(name, maxspeed, kmh, highway, radius, oneway, tunnel=tunnel,
                                     conditional=conditional, clearance=clearance), radius)
                a = b

    for j in range(-n, n + 1):
        street([(i, j) for i in range(-n, n + 1)], False, j)
    for i in range(-n, n + 1):
        street([(i, j) for j in range(-n, n + 1)], True, i)
    # service stubs with a posted limit (car parks, yards), dead ends of 2-4 vertices
    keys = list(grid.keys())
    for _ in range(len(keys) // 12):
        x, y, nd = grid[rng.choice(keys)]
        b = rng.uniform(0, 2 * math.pi)
        nodes = [nd]
        for _ in range(rng.randint(1, 3)):
            b += rng.uniform(-0.6, 0.6)
            x += math.cos(b) * rng.uniform(15, 40)
            y += math.sin(b) * rng.uniform(15, 40)
            lat, lon = place(x, y)
            nodes.append(node(lat, lon))
        maxspeed, kmh = urban_speed(rng, "service")
        radius = radius_of(rng, "service")
        out.way(nodes, props("service", maxspeed, kmh, "service", radius), radius)
    # roundabouts in towns and cities: closed one-way rings
    if big:
        for _ in range(max(1, len(keys) // 400)):
            x, y, _ = grid[rng.choice(keys)]
            rr = rng.uniform(12, 30)
            m = rng.randint(8, 20)
            ring = []
            for k in range(m):
                a = 2 * math.pi * k / m
                lat, lon = place(x + rr * math.cos(a), y + rr * math.sin(a))
                ring.append(node(lat, lon))
            ring.append(ring[0])
            radius = radius_of(rng, "secondary")
            out.way(ring, props("secondary", "50", 50, "secondary", radius, "yes"), radius)


def country_road(rng, out, a, b, highway, ref, motorway=False):
    """A winding road from node a to node b, cut into ways (with bridges) that share their ends."""
    lat0, lon0 = a[0], a[1]
    coslat = math.cos(lat0 * math.pi / 180)

    def xy(nd):
        return (nd[1] - lon0) * M_PER_DEG * coslat, (nd[0] - lat0) * M_PER_DEG

    tx, ty = xy(b)
    x, y = 0.0, 0.0
    bearing = math.atan2(ty, tx)
    points = [(x, y)]
    wander = 0.0
    while True:
        dx, dy = tx - x, ty - y
        dist = math.hypot(dx, dy)
        step = rng.uniform(60, 200) if motorway else rng.uniform(15, 90)
        if dist <= step * 1.5 or len(points) > 20000:
            break
        want = math.atan2(dy, dx)
        wander += rng.gauss(0, 0.03 if motorway else 0.12)
        wander *= 0.93
        turn = (want - bearing + math.pi) % (2 * math.pi) - math.pi
        bearing += 0.12 * turn + wander * 0.3
        x += step * math.cos(bearing)
        y += step * math.sin(bearing)
        points.append((x, y))
    lines = [(0.0, None)] if not motorway else [(-11.0, "a"), (11.0, "b")]
    for offset, side in lines:
        nodes = [a]
        for k in range(1, len(points)):
            px, py = points[k]
            if offset:
                qx, qy = points[k - 1]
                d = math.hypot(px - qx, py - qy) or 1
                px, py = px - (py - qy) / d * offset, py + (px - qx) / d * offset
            nodes.append(node(lat0 + py / M_PER_DEG, lon0 + px / (M_PER_DEG * coslat)))
        nodes.append(b)
        if side == "b":
            nodes.reverse()
        name = ref
        k = 0
        while k < len(nodes) - 1:
            if rng.random() < (0.03 if motorway else 0.05):
                bridge = True
                length = rng.randint(1, 4)
            else:
                bridge = False
                length = rng.randint(30, 400) if motorway else rng.choice(
                    (2, 4, 8, 12, 20, 30, 45, 60, 90, 120, 180, 260, 400))
            end = min(len(nodes) - 1, k + length)
            piece = nodes[k:end + 1]
            if motorway:
                maxspeed = rng.choice(("120", "130", "100", "120"))
                kmh = int(maxspeed)
                hw = highway
                oneway = "yes"
            else:
                maxspeed, kmh = rng.choice((("100", 100), ("DE:rural", 100), ("70", 70), ("80", 80), ("100", 100)))
                hw = highway
                oneway = None
            radius = radius_of(rng, hw)
            out.way(piece, props(name, maxspeed, kmh, hw, radius, oneway, bridge=bridge), radius)
            out.shared += 1
            k = end


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ways", type=int, default=1000000, help="about how many ways (fences)")
    add_country_arguments(ap)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = Out(rng, a.points // 2, a.seed)
    scale = a.ways / 1_000_000
    cities = []
    for _ in range(max(2, int(56 * scale))):
        cities.append(Settlement(rng.uniform(a.south + 0.3, a.north - 0.3), rng.uniform(a.west + 0.4, a.east - 0.4),
                                 rng.uniform(2500, 7500), "city"))
    settlements = list(cities)
    for kind, count, lo, hi in (("town", int(1120 * scale), 700, 2000), ("village", int(11200 * scale), 150, 600)):
        for _ in range(count):
            if rng.random() < 0.6:
                c = rng.choice(cities)
                d = abs(rng.gauss(0, 30000)) + c.radius
                t = rng.uniform(0, 2 * math.pi)
                lat = c.lat + d * math.sin(t) / M_PER_DEG
                lon = c.lon + d * math.cos(t) / (M_PER_DEG * math.cos(c.lat * math.pi / 180))
                if not (a.south < lat < a.north and a.west < lon < a.east):
                    continue
            else:
                lat, lon = rng.uniform(a.south, a.north), rng.uniform(a.west, a.east)
            settlements.append(Settlement(lat, lon, rng.uniform(lo, hi), kind))
    for s in settlements:
        settle(rng, out, s)
    urban = out.ways
    # country roads to the two or three nearest settlements (a coarse hash of 0.25 degrees)
    cells = {}
    for k, s in enumerate(settlements):
        cells.setdefault((int(s.lat * 4), int(s.lon * 4)), []).append(k)
    joined = set()
    refs = 0
    for k, s in enumerate(settlements):
        near = []
        ci, cj = int(s.lat * 4), int(s.lon * 4)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for m in cells.get((ci + di, cj + dj), ()):
                    if m != k:
                        o = settlements[m]
                        d = math.hypot(o.lat - s.lat, (o.lon - s.lon) * math.cos(s.lat * math.pi / 180))
                        near.append((d, m))
        near.sort()
        for d, m in near[:{"city": 4, "town": 3}.get(s.kind, 2)]:
            if (min(k, m), max(k, m)) in joined:
                continue
            joined.add((min(k, m), max(k, m)))
            o = settlements[m]
            kinds = {s.kind, o.kind}
            highway = "primary" if "city" in kinds else ("secondary" if "town" in kinds else rng.choice(
                ("tertiary", "unclassified", "tertiary")))
            refs += 1
            ref = {"primary": "B %d", "secondary": "L %d", "tertiary": "K %d"}.get(highway, "%d")
            name = ref % (refs % 3000 + 1) if highway != "unclassified" else (
                street_name(rng) if rng.random() < 0.3 else "unclassified")
            start = min(s.edges, key=lambda e: (e[0] - o.lat) ** 2 + (e[1] - o.lon) ** 2)
            end = min(o.edges, key=lambda e: (e[0] - s.lat) ** 2 + (e[1] - s.lon) ** 2)
            country_road(rng, out, start, end, highway, name)
    rural = out.ways - urban
    # motorways between cities: each to its two nearest
    done = set()
    for k, c in enumerate(cities):
        near = sorted((math.hypot(o.lat - c.lat, o.lon - c.lon), m) for m, o in enumerate(cities) if m != k)
        for _, m in near[:2]:
            if (min(k, m), max(k, m)) in done:
                continue
            done.add((min(k, m), max(k, m)))
            o = cities[m]
            start = min(c.edges, key=lambda e: (e[0] - o.lat) ** 2 + (e[1] - o.lon) ** 2)
            end = min(o.edges, key=lambda e: (e[0] - c.lat) ** 2 + (e[1] - c.lon) ** 2)
            country_road(rng, out, start, end, "motorway", "A %d" % (len(done) * 3 % 99 + 1), motorway=True)
    motorways = out.ways - urban - rural
    out.finish(a.out_prefix + ".geojson")
    with open(a.out_prefix + ".points.csv", "w") as fh:
        near = out.near
        prng = random.Random(a.seed + 7)
        for j in range(a.points):
            if j % 2 == 0 and near:
                lat, lon, radius = near[j // 2 % len(near)]
                d = prng.uniform(0, 2 * radius) / M_PER_DEG
                t = prng.uniform(0, 2 * math.pi)
                fh.write("%.7f,%.7f\n" % (lat + d * math.cos(t), lon + d * math.sin(t) / math.cos(lat * math.pi / 180)))
            else:
                fh.write("%.7f,%.7f\n" % (prng.uniform(a.south, a.north), prng.uniform(a.west, a.east)))
    print("%d ways (%d in %d settlements, %d country roads, %d motorway), %d vertices (%.1f a way, longest %d), "
          "%d joins within roads, %d bytes"
          % (out.ways, urban, len(settlements), rural, motorways, out.vertices, out.vertices / max(out.ways, 1),
             out.longest, out.shared, os.path.getsize(a.out_prefix + ".geojson")))


if __name__ == "__main__":
    main()
