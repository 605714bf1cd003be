"""AgentBoard's weather tool (``utils/weather/weather_tools.py`` at HEAD bb7255e) ported over our climate model.

The same date checks and texts, the same cleaning of open-meteo's answers (``api`` serves our data in
their schema), ``geopy``'s geodesic distance and the air-quality bands (with the FIX variant). ``WEATHER[name]`` =
(parameter names in the order AgentBoard's env reads them, function(session, ...) -> (success, result)).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

__all__ = ["WEATHER", "air_quality_level_fixed"]

_ARCHIVE = "https://archive-api.open-meteo.com/v1/archive"
_SPAN = (
    "Error: Sorry, at present, we support a maximum time span of 30 days between start_date and end_date in a "
    "single query. Your input exceeds this range. You can split your current query into multiple sub-queries "
    "that meet our criteria."
)


def _within_30_days(start_date: str, end_date: str) -> bool:
    difference = datetime.strptime(end_date, "%Y-%m-%d") - datetime.strptime(start_date, "%Y-%m-%d")
    return not difference > timedelta(days=30)


def _check_dates(s, start_date: Any, end_date: Any, past: bool) -> str | None:
    word = "earlier" if past else "later"
    for name, value in (("start_date", start_date), ("end_date", end_date)):
        if value is not None:
            day = datetime.strptime(value, "%Y-%m-%d")
            today = datetime.strptime(s.current_date, "%Y-%m-%d")
            if (day >= today) if past else (day <= today):
                return f"Error: {name} should be {word} than current_date"
    return None


def _clean_head(response: dict) -> dict:
    for key in ("elevation", "generationtime_ms", "timezone", "timezone_abbreviation", "utc_offset_seconds"):
        if key in response.keys():
            response.pop(key)
    return response


def _window_problem(s, start_date: Any, end_date: Any, past: bool | None) -> str | None:
    """AgentBoard's checks of a date window, in its order: the side of today (``past``; None skips it), then the
    30-day span."""
    if past is not None:
        problem = _check_dates(s, start_date, end_date, past=past)
        if problem:
            return problem
    return _SPAN if _within_30_days(start_date, end_date) is False else None


def _historical(s, daily: str, latitude, longitude, start_date, end_date, is_historical=True):
    problem = _window_problem(s, start_date, end_date, past=True if is_historical is True else None)
    if problem:
        return False, problem
    response = s.get(
        _ARCHIVE,
        {
            "latitude": latitude,
            "longitude": longitude,
            "start_date": start_date,
            "end_date": end_date,
            "timezone": "GMT",
            "daily": daily,
        },
    )
    if response.status_code == 200:
        return True, _clean_head(response.json())
    return False, response.text


def _forecast(s, daily: str, latitude, longitude, start_date, end_date):
    problem = _window_problem(s, start_date, end_date, past=False)
    if problem:
        return False, problem
    return _historical(s, daily, latitude, longitude, start_date, end_date, is_historical=False)


_TEMP, _RAIN, _SNOW = "temperature_2m_max,temperature_2m_min,temperature_2m_mean", "rain_sum", "snowfall_sum"


def _air_quality(s, latitude, longitude, start_date, end_date, is_historical=True):
    problem = _window_problem(s, start_date, end_date, past=True if is_historical is True else None)
    if problem:
        return False, problem
    response = s.get(
        "https://air-quality-api.open-meteo.com/v1/air-quality",
        {
            "latitude": latitude,
            "longitude": longitude,
            "start_date": start_date,
            "end_date": end_date,
            "timezone": "GMT",
            "hourly": "european_aqi_pm2_5",
        },
    )
    if response.status_code != 200:
        return False, response.text
    response = _clean_head(response.json())
    new = {
        "latitude": response["latitude"],
        "longitude": response["longitude"],
        "daily_units": response["hourly_units"],
        "daily": response["hourly"],
    }
    days = len(new["daily"]["time"]) // 24
    new["daily"]["european_aqi_pm2_5"] = [new["daily"]["european_aqi_pm2_5"][24 * i + 12] for i in range(days)]
    new["daily"]["time"] = [new["daily"]["time"][24 * i + 12] for i in range(days)]
    return True, new


def _latitude_longitude(s, name):
    response = s.get(
        "https://geocoding-api.open-meteo.com/v1/search", {"name": name, "count": 3, "language": "en", "format": "json"}
    )
    if response.status_code != 200:
        return False, response.text
    response = response.json()
    for item in response["results"]:
        for key in ("elevation", "feature_code"):
            if key in item.keys():
                item.pop(key)
        if "country_code" in item.keys():
            item.pop("country")  # sic: AgentBoard tests country_code and drops country
        for key in ("country_id", "admin1_id", "timezone", "population", "postcodes"):
            if key in item.keys():
                item.pop(key)
        for key in list(item.keys()):
            if key.endswith("id"):
                item.pop(key)
        for key in list(item.keys()):
            if "admin" in key:
                item.pop(key)
    if "generationtime_ms" in response.keys():
        response.pop("generationtime_ms")
    return True, response


def _elevation(s, latitude, longitude):
    response = s.get("https://api.open-meteo.com/v1/elevation", {"latitude": latitude, "longitude": longitude})
    return (True, response.json()) if response.status_code == 200 else (False, response.text)


def _geopy_point(latitude: Any, longitude: Any) -> tuple[float, float]:
    """``geopy.point._normalize_coordinates`` (geopy 2.4)."""
    latitude, longitude = float(latitude or 0.0), float(longitude or 0.0)
    if not all(math.isfinite(x) for x in (latitude, longitude)):
        raise ValueError(
            f"Point coordinates must be finite. {(latitude, longitude, 0.0)!r} has been passed as coordinates."
        )
    if abs(latitude) > 90:
        raise ValueError("Latitude must be in the [-90; 90] range.")
    if abs(longitude) > 180:
        modulo = math.fmod(longitude, 360.0) or 0.0
        longitude = modulo + 360.0 if modulo < -180 else modulo - 360.0 if modulo >= 180 else modulo
    return latitude, longitude


def _distance(s, latitude1, longitude1, latitude2, longitude2):
    """``geopy.distance.geodesic(coord1, coord2).km``: Karney's geodesic on WGS-84 with the axis in km
    (geographiclib, the ``tools`` extra; without it Vincenty's formula, equal to about a millimetre)."""
    lat1, lon1 = _geopy_point(latitude1, longitude1)
    lat2, lon2 = _geopy_point(latitude2, longitude2)
    try:
        from geographiclib.geodesic import Geodesic
    except ImportError:
        return True, _vincenty_km(lat1, lon1, lat2, lon2)
    return True, Geodesic(6378.137, 1 / 298.257223563).Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def _vincenty_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    a, f = 6378.137, 1 / 298.257223563
    b = (1 - f) * a
    u1, u2 = math.atan((1 - f) * math.tan(math.radians(lat1))), math.atan((1 - f) * math.tan(math.radians(lat2)))
    big_l = math.radians(lon2 - lon1)
    lam = big_l
    for _ in range(200):
        sin_l, cos_l = math.sin(lam), math.cos(lam)
        sin_s = math.hypot(math.cos(u2) * sin_l, math.cos(u1) * math.sin(u2) - math.sin(u1) * math.cos(u2) * cos_l)
        if sin_s == 0:
            return 0.0
        cos_s = math.sin(u1) * math.sin(u2) + math.cos(u1) * math.cos(u2) * cos_l
        sigma = math.atan2(sin_s, cos_s)
        sin_a = math.cos(u1) * math.cos(u2) * sin_l / sin_s
        cos2_a = 1 - sin_a**2
        cos_2sm = cos_s - 2 * math.sin(u1) * math.sin(u2) / cos2_a if cos2_a else 0.0
        c = f / 16 * cos2_a * (4 + f * (4 - 3 * cos2_a))
        previous = lam
        lam = big_l + (1 - c) * f * sin_a * (sigma + c * sin_s * (cos_2sm + c * cos_s * (-1 + 2 * cos_2sm**2)))
        if abs(lam - previous) < 1e-12:
            break
    u_sq = cos2_a * (a**2 - b**2) / b**2
    big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)))
    big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)))
    delta = (
        big_b
        * sin_s
        * (
            cos_2sm
            + big_b
            / 4
            * (cos_s * (-1 + 2 * cos_2sm**2) - big_b / 6 * cos_2sm * (-3 + 4 * sin_s**2) * (-3 + 4 * cos_2sm**2))
        )
    )
    return b * big_a * (sigma - delta)


def _air_quality_level(s, air_quality_index):
    if air_quality_index <= 20:
        return True, "good"
    if 21 < air_quality_index <= 40:
        return True, "fair"
    if 41 < air_quality_index <= 60:
        return True, "moderate"
    if 61 < air_quality_index <= 80:
        return True, "poor"
    if 81 < air_quality_index <= 100:
        return True, "very poor"
    return True, "extremely poor"


def _no_zipcode_url():
    raise KeyError("zipcode")  # AgentBoard's URLS has no "zipcode" entry (commented out)


def air_quality_level_fixed(air_quality_index: Any) -> str:
    """FIX: the same bands without AgentBoard's gaps (20 < x <= 21 is "fair", not "extremely poor")."""
    for upper, level in ((20, "good"), (40, "fair"), (60, "moderate"), (80, "poor"), (100, "very poor")):
        if air_quality_index <= upper:
            return level
    return "extremely poor"


_RANGE = ("latitude", "longitude", "start_date", "end_date")
_TODAY = ("latitude", "longitude", "current_date")
WEATHER: dict[str, tuple[tuple[str, ...], Callable]] = {
    "get_user_current_date": ((), lambda s: (True, s.current_date)),
    "get_user_current_location": ((), lambda s: (True, s.current_location)),
    "get_historical_temp": (_RANGE, lambda s, **k: _historical(s, _TEMP, **k)),
    "get_historical_rain": (_RANGE, lambda s, **k: _historical(s, _RAIN, **k)),
    "get_historical_snow": (_RANGE, lambda s, **k: _historical(s, _SNOW, **k)),
    "get_snow_forecast": (_RANGE, lambda s, **k: _forecast(s, _SNOW, **k)),
    "get_current_snow": (
        _TODAY,
        lambda s, latitude, longitude, current_date: _historical(
            s, _SNOW, latitude, longitude, current_date, current_date, is_historical=False
        ),
    ),
    "get_current_temp": (
        _TODAY,
        lambda s, latitude, longitude, current_date: _historical(
            s, _TEMP, latitude, longitude, current_date, current_date, is_historical=False
        ),
    ),
    "get_latitude_longitude": (("name",), _latitude_longitude),
    "get_elevation": (("latitude", "longitude"), _elevation),
    "get_temp_forecast": (_RANGE, lambda s, **k: _forecast(s, _TEMP, **k)),
    "get_rain_forecast": (_RANGE, lambda s, **k: _forecast(s, _RAIN, **k)),
    "get_current_rain": (
        _TODAY,
        lambda s, latitude, longitude, current_date: _historical(
            s, _RAIN, latitude, longitude, current_date, current_date, is_historical=False
        ),
    ),
    "get_distance": (("latitude1", "longitude1", "latitude2", "longitude2"), _distance),
    "get_historical_air_quality_index": (_RANGE, _air_quality),
    "get_current_air_quality_index": (
        _TODAY,
        lambda s, latitude, longitude, current_date: _air_quality(
            s, latitude, longitude, current_date, current_date, is_historical=False
        ),
    ),
    "get_air_quality_level": (("air_quality_index",), _air_quality_level),
    "convert_zipcode_to_address": (("zipcode",), lambda s, zipcode: _no_zipcode_url()),
}
