"""The weather tool: open-meteo-like functions served from the climate model, relative to a fixed date."""

from __future__ import annotations

import datetime as dt
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import USER_DATE_SPECS, Toolkit
from agentgym_text.envs.tools.schema import FunctionSpec, Param
from agentgym_text.envs.tools.weather.cities import City, city_by_name
from agentgym_text.envs.tools.weather.climate import air_quality_level, daily_weather, haversine_km, nearest_city

__all__ = ["WeatherToolkit", "MAX_SPAN_DAYS", "FORECAST_DAYS"]

MAX_SPAN_DAYS = 30
FORECAST_DAYS = 16
_POINT = (Param("latitude", "number"), Param("longitude", "number"))
_RANGE = (*_POINT, Param("start_date", description="YYYY-MM-DD"), Param("end_date", description="YYYY-MM-DD"))
_TODAY = (*_POINT, Param("current_date", description="today, YYYY-MM-DD"))
_DAILY_FIELDS = {
    "temp": ("temperature_2m_max", "temperature_2m_min", "temperature_2m_mean"),
    "rain": ("rain_sum",),
    "snow": ("snowfall_sum",),
    "aqi": ("european_aqi",),
}
_ATTRIBUTE = {
    "temperature_2m_max": "temperature_max",
    "temperature_2m_min": "temperature_min",
    "temperature_2m_mean": "temperature_mean",
    "rain_sum": "rain_sum",
    "snowfall_sum": "snowfall_sum",
    "european_aqi": "european_aqi",
}


def _spec(name: str, description: str, params: tuple[Param, ...], returns: str) -> FunctionSpec:
    return FunctionSpec(name, description, params, returns)


class WeatherToolkit(Toolkit):
    """Weather of the listed cities; a point is served if it lies within 50 km of one of them."""

    name = "weather"
    functions = (
        *USER_DATE_SPECS,
        _spec(
            "get_latitude_longitude",
            "Look up a city's coordinates.",
            (Param("name"),),
            "results: list of {name, country, latitude, longitude}",
        ),
        _spec("get_elevation", "Elevation of a place in metres.", _POINT, "{latitude, longitude, elevation}"),
        _spec(
            "get_historical_temp",
            "Daily temperatures (°C) of past days (before today, at most 30 days).",
            _RANGE,
            "daily max/min/mean temperature",
        ),
        _spec("get_historical_rain", "Daily rain (mm) of past days.", _RANGE, "daily rain_sum"),
        _spec("get_historical_snow", "Daily snowfall (cm) of past days.", _RANGE, "daily snowfall_sum"),
        _spec(
            "get_temp_forecast",
            "Daily temperature forecast (after today, up to 16 days ahead).",
            _RANGE,
            "daily max/min/mean temperature",
        ),
        _spec("get_rain_forecast", "Daily rain forecast (mm).", _RANGE, "daily rain_sum"),
        _spec("get_snow_forecast", "Daily snowfall forecast (cm).", _RANGE, "daily snowfall_sum"),
        _spec("get_current_temp", "Today's temperature.", _TODAY, "max/min/mean temperature today"),
        _spec("get_current_rain", "Today's rain (mm).", _TODAY, "rain_sum today"),
        _spec("get_current_snow", "Today's snowfall (cm).", _TODAY, "snowfall_sum today"),
        _spec(
            "get_distance",
            "Great-circle distance between two points in km.",
            (
                Param("latitude1", "number"),
                Param("longitude1", "number"),
                Param("latitude2", "number"),
                Param("longitude2", "number"),
            ),
            "{distance_km}",
        ),
        _spec(
            "get_historical_air_quality_index",
            "Daily European air-quality index of past days.",
            _RANGE,
            "daily european_aqi",
        ),
        _spec("get_current_air_quality_index", "Today's European air-quality index.", _TODAY, "{european_aqi}"),
        _spec(
            "get_air_quality_level",
            "The level name of a European air-quality index value.",
            (Param("air_quality_index", "number"),),
            "good, fair, moderate, poor, very poor or extremely poor",
        ),
    )

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.today = dt.date.fromisoformat(config.get("current_date", "2023-06-15"))
        self.location = config.get("current_location", "New York")

    # ---- helpers -----------------------------------------------------------------------------------
    @staticmethod
    def _city(latitude: float, longitude: float) -> City:
        if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
            raise ActionError(
                "latitude must be within -90..90 and longitude within -180..180.", InvalidReason.BAD_ARGUMENT
            )
        city = nearest_city(latitude, longitude)
        if city is None:
            raise ActionError(
                f"No weather data for ({latitude}, {longitude}): this offline service covers its listed cities "
                "(within 50 km). Use get_latitude_longitude to find a city's coordinates.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return city

    @staticmethod
    def _date(text: str, name: str) -> dt.date:
        try:
            return dt.date.fromisoformat(text.strip())
        except ValueError:
            raise ActionError(
                f"{name} must be a date written YYYY-MM-DD, not {text[:30]!r}.", InvalidReason.BAD_ARGUMENT
            ) from None

    def _range(self, start_date: str, end_date: str, future: bool) -> list[dt.date]:
        start, end = self._date(start_date, "start_date"), self._date(end_date, "end_date")
        if start > end:
            raise ActionError("start_date must not be later than end_date.", InvalidReason.PRECONDITION)
        if (end - start).days + 1 > MAX_SPAN_DAYS:
            raise ActionError(f"The range may span at most {MAX_SPAN_DAYS} days.", InvalidReason.PRECONDITION)
        if future:
            if start <= self.today:
                raise ActionError(f"A forecast starts after the current date {self.today}.", InvalidReason.PRECONDITION)
            if end > self.today + dt.timedelta(days=FORECAST_DAYS):
                raise ActionError(f"Forecasts reach at most {FORECAST_DAYS} days ahead.", InvalidReason.PRECONDITION)
        elif end >= self.today:
            raise ActionError(f"Historical data ends before the current date {self.today}.", InvalidReason.PRECONDITION)
        return [start + dt.timedelta(days=offset) for offset in range((end - start).days + 1)]

    def _series(self, kind: str, latitude: float, longitude: float, start: str, end: str, future: bool) -> dict:
        city = self._city(latitude, longitude)
        days = self._range(start, end, future)
        daily: dict[str, list[Any]] = {"time": [day.isoformat() for day in days]}
        for field in _DAILY_FIELDS[kind]:
            daily[field] = [getattr(daily_weather(city, day), _ATTRIBUTE[field]) for day in days]
        return {"latitude": city.latitude, "longitude": city.longitude, "daily": daily}

    def _today(self, kind: str, latitude: float, longitude: float, current_date: str) -> dict:
        city = self._city(latitude, longitude)
        if self._date(current_date, "current_date") != self.today:
            raise ActionError(
                "current_date must be today's date; call get_user_current_date.", InvalidReason.PRECONDITION
            )
        weather = daily_weather(city, self.today)
        out: dict[str, Any] = {"latitude": city.latitude, "longitude": city.longitude, "date": self.today.isoformat()}
        for field in _DAILY_FIELDS[kind]:
            out[field] = getattr(weather, _ATTRIBUTE[field])
        return out

    # ---- functions ---------------------------------------------------------------------------------
    def do_get_user_current_date(self) -> str:
        return self.today.isoformat()

    def do_get_user_current_location(self) -> str:
        return self.location

    def do_get_latitude_longitude(self, name: str) -> dict:
        city = city_by_name(name)
        if city is None:
            raise ActionError(f"No city named {name[:60]!r} in the offline gazetteer.", InvalidReason.UNKNOWN_OBJECT)
        return {
            "results": [
                {"name": city.name, "country": city.country, "latitude": city.latitude, "longitude": city.longitude}
            ]
        }

    def do_get_elevation(self, latitude: float, longitude: float) -> dict:
        city = self._city(latitude, longitude)
        return {"latitude": city.latitude, "longitude": city.longitude, "elevation": float(city.elevation)}

    def do_get_historical_temp(self, **kw: Any) -> dict:
        return self._series("temp", future=False, **_positional(kw))

    def do_get_historical_rain(self, **kw: Any) -> dict:
        return self._series("rain", future=False, **_positional(kw))

    def do_get_historical_snow(self, **kw: Any) -> dict:
        return self._series("snow", future=False, **_positional(kw))

    def do_get_temp_forecast(self, **kw: Any) -> dict:
        return self._series("temp", future=True, **_positional(kw))

    def do_get_rain_forecast(self, **kw: Any) -> dict:
        return self._series("rain", future=True, **_positional(kw))

    def do_get_snow_forecast(self, **kw: Any) -> dict:
        return self._series("snow", future=True, **_positional(kw))

    def do_get_historical_air_quality_index(self, **kw: Any) -> dict:
        return self._series("aqi", future=False, **_positional(kw))

    def do_get_current_temp(self, latitude: float, longitude: float, current_date: str) -> dict:
        return self._today("temp", latitude, longitude, current_date)

    def do_get_current_rain(self, latitude: float, longitude: float, current_date: str) -> dict:
        return self._today("rain", latitude, longitude, current_date)

    def do_get_current_snow(self, latitude: float, longitude: float, current_date: str) -> dict:
        return self._today("snow", latitude, longitude, current_date)

    def do_get_current_air_quality_index(self, latitude: float, longitude: float, current_date: str) -> dict:
        return self._today("aqi", latitude, longitude, current_date)

    def do_get_distance(self, latitude1: float, longitude1: float, latitude2: float, longitude2: float) -> dict:
        return {"distance_km": round(haversine_km(latitude1, longitude1, latitude2, longitude2), 2)}

    def do_get_air_quality_level(self, air_quality_index: float) -> str:
        if air_quality_index < 0:
            raise ActionError("air_quality_index cannot be negative.", InvalidReason.BAD_ARGUMENT)
        return air_quality_level(air_quality_index)

    def example_calls(self) -> list[Call]:
        calls = [Call("get_user_current_date", {}), Call("get_user_current_location", {})]
        yesterday = (self.today - dt.timedelta(days=1)).isoformat()
        week_ago = (self.today - dt.timedelta(days=7)).isoformat()
        for name in [self.location, *self.config.get("mentions", [])]:
            city = city_by_name(name)
            if city is None:
                continue
            point = {"latitude": city.latitude, "longitude": city.longitude}
            calls += [
                Call("get_latitude_longitude", {"name": city.name}),
                Call("get_elevation", point),
                Call("get_historical_temp", {**point, "start_date": week_ago, "end_date": yesterday}),
                Call("get_current_air_quality_index", {**point, "current_date": self.today.isoformat()}),
            ]
        return calls


def _positional(kw: dict[str, Any]) -> dict[str, Any]:
    return {"latitude": kw["latitude"], "longitude": kw["longitude"], "start": kw["start_date"], "end": kw["end_date"]}
