"""The climate model: daily weather of a city as a pure function of (city, date).

Temperature follows a cosine season peaking in late July (north) or late January (south), plus
day-to-day noise; precipitation falls on a share of days that grows with the annual total and turns to
snow below freezing; the air-quality index is the city's base level with seasonal and daily variation.
Randomness comes from ``random.Random`` seeded with the text "city|date", which is stable everywhere.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache

from agentgym_text.envs.tools.weather.cities import CITIES, City

__all__ = ["DailyWeather", "daily_weather", "nearest_city", "haversine_km", "air_quality_level"]

_NORTH_PEAK_DAY = 205
_SOUTH_PEAK_DAY = 22


@dataclass(frozen=True)
class DailyWeather:
    temperature_max: float
    temperature_min: float
    temperature_mean: float
    rain_sum: float
    snowfall_sum: float
    european_aqi: int


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km on a sphere of radius 6371 km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dphi, dlmb = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dlmb / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(min(1.0, a)))


def nearest_city(latitude: float, longitude: float, within_km: float = 50.0) -> City | None:
    """The listed city nearest to the point, if it is within ``within_km``."""
    best = min(CITIES, key=lambda city: (haversine_km(latitude, longitude, city.latitude, city.longitude), city.name))
    return best if haversine_km(latitude, longitude, best.latitude, best.longitude) <= within_km else None


@lru_cache(maxsize=65_536)
def daily_weather(city: City, day: dt.date) -> DailyWeather:
    rng = random.Random(f"{city.name}|{day.isoformat()}")
    peak = _NORTH_PEAK_DAY if city.latitude >= 0 else _SOUTH_PEAK_DAY
    season = math.cos(2 * math.pi * (day.timetuple().tm_yday - peak) / 365.25)
    mean = city.mean_temp + city.seasonal_range * season + rng.gauss(0.0, 2.2)
    spread = 3.0 + 3.0 * rng.random()
    wet_share = min(0.75, 0.05 + city.annual_precip / 2600.0)
    amount = rng.expovariate(1.0) * city.annual_precip / (365.0 * wet_share) if rng.random() < wet_share else 0.0
    snow = 0.0
    if amount and mean < 0.5:
        snow, amount = amount * 0.7, 0.0  # snowfall in cm from water in mm (~7:1 for light snow)
    aqi = city.base_aqi * (1.0 - 0.15 * season) * math.exp(rng.gauss(0.0, 0.25))
    return DailyWeather(
        temperature_max=round(mean + spread, 1),
        temperature_min=round(mean - spread, 1),
        temperature_mean=round(mean, 1),
        rain_sum=round(amount, 1),
        snowfall_sum=round(snow, 2),
        european_aqi=int(round(aqi)),
    )


_LEVELS = ((20, "good"), (40, "fair"), (60, "moderate"), (80, "poor"), (100, "very poor"))


def air_quality_level(index: float) -> str:
    """European AQI band; the upper bound of each band belongs to it (no gaps between bands)."""
    for upper, level in _LEVELS:
        if index <= upper:
            return level
    return "extremely poor"
