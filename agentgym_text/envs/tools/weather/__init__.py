"""Weather: a deterministic seasonal climate model over real cities (true coordinates and elevations)."""
