"""The generic beacon detector: beacons that no catalog entry describes,
reported as pixels marked ``"recognised": "heuristic"`` (``detector.py``;
what a request must be and carry: ``features.py``; docs/third-parties.md "Beacons
the catalog does not know")."""
from tagcrawl.engine.beacons.detector import HEURISTIC_PREFIX, BeaconRun, detect

__all__ = ["HEURISTIC_PREFIX", "BeaconRun", "detect"]
