"""The options the country generators share (`make_corridor_country.py`, `make_road_network.py`,
`make_tiled_extracts.py`): the query points, the seed, the box (Germany's by default) and where the
files go."""


def add_country_arguments(ap):
    ap.add_argument("--points", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--south", type=float, default=47.3)
    ap.add_argument("--west", type=float, default=5.9)
    ap.add_argument("--north", type=float, default=55.0)
    ap.add_argument("--east", type=float, default=15.0)
    ap.add_argument("--out-prefix", required=True)
