"""Longitude/latitude to the picture plane (used offline by the shape generator).

A Lambert conformal conic projection whose standard parallels sit at one sixth and five
sixths of the map's latitude range: shapes keep their form across the height of Europe, and
meridians converge northwards as on a printed map. A map astride the equator, where a cone
degenerates, is drawn equirectangular instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Conic:
    lon0: float  # central meridian
    lat0: float  # latitude of origin
    lat1: float  # standard parallels
    lat2: float

    @classmethod
    def for_extent(cls, lon_min: float, lat_min: float, lon_max: float, lat_max: float) -> Conic:
        span = lat_max - lat_min
        return cls((lon_min + lon_max) / 2, (lat_min + lat_max) / 2, lat_min + span / 6, lat_max - span / 6)

    def _constants(self) -> tuple[float, float, float]:
        p1, p2 = math.radians(self.lat1), math.radians(self.lat2)
        if abs(p1 - p2) < 1e-9:
            n = math.sin(p1)
        else:
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
            )
        if abs(n) < 1e-3:  # a map astride the equator: no cone; see __call__
            return 0.0, 0.0, 0.0
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = f / math.tan(math.pi / 4 + math.radians(self.lat0) / 2) ** n
        return n, f, rho0

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        """Plane coordinates in Earth radii: x east, y north."""
        n, f, rho0 = self._constants_cached
        if n == 0.0:  # equirectangular, scaled by the cosine of the middle latitude
            return math.radians(lon - self.lon0) * math.cos(math.radians(self.lat0)), math.radians(lat - self.lat0)
        lat = max(-89.9, min(89.9, lat))
        rho = f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        theta = n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    @property
    def _constants_cached(self) -> tuple[float, float, float]:
        cached = self.__dict__.get("_k")
        if cached is None:
            cached = self._constants()
            object.__setattr__(self, "_k", cached)
        return cached
