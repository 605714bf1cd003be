"""The 20 weather tasks: seven question templates, each with a fixed current date and location; the training
drafts: the same templates over other dates, places and day counts (another seed, wider ranges)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from itertools import islice

from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.task_builder import TaskDraft
from agentgym_text.envs.tools.weather.cities import CITIES, City
from agentgym_text.envs.tools.weather.climate import daily_weather

__all__ = ["drafts", "training_drafts"]

_COLD = ("Moscow", "Montreal", "Anchorage", "Stockholm", "Oslo", "Chicago", "Toronto", "Beijing", "Seoul")


def _point(city: City) -> dict[str, float]:
    return {"latitude": city.latitude, "longitude": city.longitude}


def _lookup(city: City) -> Call:
    return Call("get_latitude_longitude", {"name": city.name})


def _config(today: dt.date, here: City, *mentions: City) -> dict:
    return {
        "current_date": today.isoformat(),
        "current_location": here.name,
        "mentions": [city.name for city in mentions],
    }


_DATE = Call("get_user_current_date", {})
_WHERE = Call("get_user_current_location", {})


def _average_temperature(today: dt.date, here: City, city: City, days: int) -> TaskDraft:
    start, end = today - dt.timedelta(days=days), today - dt.timedelta(days=1)
    return TaskDraft(
        goal=f"What was the average daily mean temperature (°C) in {city.name} over the last {days} days "
        "(not counting today)? Answer with a number; within 0.1 °C counts as correct.",
        calls=[
            _DATE,
            _lookup(city),
            Call("get_historical_temp", {**_point(city), "start_date": start.isoformat(), "end_date": end.isoformat()}),
        ],
        answer=lambda out: round(sum(out[2]["daily"]["temperature_2m_mean"]) / days, 2),
        rule=AnswerRule("number", abs_tol=0.1),
        config=_config(today, here, city),
    )


def _rain_forecast(today: dt.date, here: City, days: int) -> TaskDraft:
    start, end = today + dt.timedelta(days=1), today + dt.timedelta(days=days)
    return TaskDraft(
        goal=f"How much rain in total (mm) is forecast for my current city over the next {days} days, starting "
        "tomorrow? Answer with a number; within 0.1 mm counts as correct.",
        calls=[
            _DATE,
            _WHERE,
            _lookup(here),
            Call("get_rain_forecast", {**_point(here), "start_date": start.isoformat(), "end_date": end.isoformat()}),
        ],
        answer=lambda out: round(sum(out[3]["daily"]["rain_sum"]), 2),
        rule=AnswerRule("number", abs_tol=0.1),
        config=_config(today, here),
    )


def _higher(today: dt.date, here: City, first: City, second: City) -> TaskDraft:
    return TaskDraft(
        goal=f"Which city lies higher above sea level, {first.name} or {second.name}? Answer with the city name.",
        calls=[
            _lookup(first),
            _lookup(second),
            Call("get_elevation", _point(first)),
            Call("get_elevation", _point(second)),
        ],
        answer=first.name if first.elevation > second.elevation else second.name,
        config=_config(today, here, first, second),
    )


def _distance(today: dt.date, here: City, city: City) -> TaskDraft:
    return TaskDraft(
        goal=f"How far is {city.name} from my current city, in kilometres (great-circle distance)? "
        "Answer with a number; within 1% counts as correct.",
        calls=[
            _WHERE,
            _lookup(here),
            _lookup(city),
            Call(
                "get_distance",
                {
                    "latitude1": here.latitude,
                    "longitude1": here.longitude,
                    "latitude2": city.latitude,
                    "longitude2": city.longitude,
                },
            ),
        ],
        answer=lambda out: out[3]["distance_km"],
        rule=AnswerRule("number", abs_tol=1.0, rel_tol=0.01),
        config=_config(today, here, city),
    )


def _air_level(today: dt.date, here: City, city: City) -> TaskDraft:
    aqi = daily_weather(city, today).european_aqi
    return TaskDraft(
        goal=f"What is the air quality level in {city.name} today? Answer with the level name.",
        calls=[
            _DATE,
            _lookup(city),
            Call("get_current_air_quality_index", {**_point(city), "current_date": today.isoformat()}),
            Call("get_air_quality_level", {"air_quality_index": aqi}),
        ],
        answer=lambda out: out[3],
        config=_config(today, here, city),
    )


def _warmest_day(today: dt.date, here: City, days: int) -> TaskDraft:
    start, end = today - dt.timedelta(days=days), today - dt.timedelta(days=1)
    return TaskDraft(
        goal=f"On which day of the last {days} days (not counting today) was the maximum temperature highest in "
        "my current city? Answer with the date as YYYY-MM-DD.",
        calls=[
            _DATE,
            _WHERE,
            _lookup(here),
            Call("get_historical_temp", {**_point(here), "start_date": start.isoformat(), "end_date": end.isoformat()}),
        ],
        answer=lambda out: max(zip(out[3]["daily"]["temperature_2m_max"], out[3]["daily"]["time"]))[1],
        config=_config(today, here),
    )


def _snowfall(today: dt.date, here: City, city: City) -> TaskDraft:
    start, end = today - dt.timedelta(days=20), today - dt.timedelta(days=6)
    return TaskDraft(
        goal=f"What was the total snowfall (cm) in {city.name} from {start.isoformat()} to {end.isoformat()} "
        "inclusive? Answer with a number; within 0.1 cm counts as correct.",
        calls=[
            _lookup(city),
            Call("get_historical_snow", {**_point(city), "start_date": start.isoformat(), "end_date": end.isoformat()}),
        ],
        answer=lambda out: round(sum(out[1]["daily"]["snowfall_sum"]), 2),
        rule=AnswerRule("number", abs_tol=0.1),
        config=_config(today, here, city),
    )


def _unique_warmest(today: dt.date, city: City, days: int) -> bool:
    highs = sorted(
        (daily_weather(city, today - dt.timedelta(days=k)).temperature_max for k in range(1, days + 1)), reverse=True
    )
    return highs[0] > highs[1]


def _stream(rng: random.Random, training: bool) -> Iterator[TaskDraft]:
    """Drafts taking the seven templates in turn; ``training`` widens the day counts and the snow winters."""
    by_name = {city.name: city for city in CITIES}
    index = 0
    while True:
        today = dt.date(2023, 1, 10) + dt.timedelta(days=rng.randrange(700))
        here, other = rng.sample(CITIES, 2)
        template = index % 7
        index += 1
        if template == 0:
            yield _average_temperature(today, here, other, rng.randint(2, 14) if training else rng.randint(3, 7))
        elif template == 1:
            yield _rain_forecast(today, here, rng.randint(2, 14) if training else rng.randint(3, 10))
        elif template == 2:
            first, second = sorted(rng.sample(CITIES, 2), key=lambda city: city.name)
            while first.elevation == second.elevation:
                first, second = sorted(rng.sample(CITIES, 2), key=lambda city: city.name)
            yield _higher(today, here, first, second)
        elif template == 3:
            yield _distance(today, here, other)
        elif template == 4:
            yield _air_level(today, here, other)
        elif template == 5:
            days = rng.randint(3, 10) if training else 7
            while not _unique_warmest(today, here, days):
                today += dt.timedelta(days=1)
            yield _warmest_day(today, here, days)
        else:
            winter = dt.date(2023 if training and rng.random() < 0.5 else 2024, 1, 25)
            winter += dt.timedelta(days=rng.randrange(30))
            yield _snowfall(winter, here, by_name[rng.choice(_COLD)])


def drafts() -> list[TaskDraft]:
    return list(islice(_stream(random.Random(11), training=False), 20))


def training_drafts() -> Iterator[TaskDraft]:
    """An endless stream of training drafts (the caller leaves out those asking what a shipped task asks)."""
    return _stream(random.Random("weather-training"), training=True)
