"""Real cities with their coordinates (degrees), elevation (m) and the climate parameters of our model.

Coordinates and elevations are the usual published values for each city centre. Climate parameters are
rounded normals: annual mean temperature (°C), seasonal half-range (°C), annual precipitation (mm) and a
typical European air-quality index.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["City", "CITIES", "city_by_name"]


@dataclass(frozen=True)
class City:
    name: str
    country: str
    latitude: float
    longitude: float
    elevation: float
    mean_temp: float
    seasonal_range: float
    annual_precip: float
    base_aqi: float


CITIES: tuple[City, ...] = (
    City("New York", "United States", 40.7128, -74.0060, 10, 13.0, 12.0, 1200, 35),
    City("Los Angeles", "United States", 34.0522, -118.2437, 89, 18.5, 5.0, 380, 50),
    City("Chicago", "United States", 41.8781, -87.6298, 181, 10.5, 14.5, 940, 38),
    City("Denver", "United States", 39.7392, -104.9903, 1609, 10.5, 11.5, 400, 40),
    City("Seattle", "United States", 47.6062, -122.3321, 53, 11.5, 7.5, 960, 28),
    City("Miami", "United States", 25.7617, -80.1918, 2, 25.0, 4.0, 1570, 30),
    City("Anchorage", "United States", 61.2181, -149.9003, 31, 2.5, 12.5, 410, 18),
    City("Toronto", "Canada", 43.6532, -79.3832, 76, 9.0, 13.5, 830, 30),
    City("Montreal", "Canada", 45.5017, -73.5673, 36, 7.0, 15.5, 1000, 28),
    City("Vancouver", "Canada", 49.2827, -123.1207, 70, 10.5, 7.0, 1460, 22),
    City("Mexico City", "Mexico", 19.4326, -99.1332, 2240, 17.0, 3.0, 820, 75),
    City("London", "United Kingdom", 51.5074, -0.1278, 11, 11.5, 7.0, 600, 32),
    City("Paris", "France", 48.8566, 2.3522, 35, 12.5, 8.0, 640, 34),
    City("Berlin", "Germany", 52.5200, 13.4050, 34, 10.0, 9.5, 570, 33),
    City("Madrid", "Spain", 40.4168, -3.7038, 667, 15.0, 10.5, 420, 36),
    City("Rome", "Italy", 41.9028, 12.4964, 21, 15.5, 8.5, 800, 40),
    City("Stockholm", "Sweden", 59.3293, 18.0686, 28, 7.5, 10.0, 540, 20),
    City("Oslo", "Norway", 59.9139, 10.7522, 23, 6.5, 10.5, 760, 22),
    City("Reykjavik", "Iceland", 64.1466, -21.9426, 52, 5.0, 6.0, 860, 12),
    City("Moscow", "Russia", 55.7558, 37.6173, 156, 6.0, 14.0, 710, 42),
    City("Istanbul", "Turkey", 41.0082, 28.9784, 39, 15.0, 9.0, 820, 48),
    City("Cairo", "Egypt", 30.0444, 31.2357, 23, 22.5, 7.5, 20, 95),
    City("Nairobi", "Kenya", -1.2921, 36.8219, 1795, 18.5, 2.0, 870, 45),
    City("Cape Town", "South Africa", -33.9249, 18.4241, 25, 17.0, 5.0, 520, 30),
    City("Dubai", "United Arab Emirates", 25.2048, 55.2708, 5, 28.0, 7.5, 90, 80),
    City("Mumbai", "India", 19.0760, 72.8777, 14, 27.5, 2.5, 2200, 85),
    City("Delhi", "India", 28.7041, 77.1025, 216, 25.0, 9.0, 800, 120),
    City("Beijing", "China", 39.9042, 116.4074, 44, 12.5, 15.0, 570, 90),
    City("Shanghai", "China", 31.2304, 121.4737, 4, 17.0, 11.0, 1160, 70),
    City("Tokyo", "Japan", 35.6762, 139.6503, 40, 16.0, 10.0, 1520, 38),
    City("Seoul", "South Korea", 37.5665, 126.9780, 38, 12.5, 14.5, 1450, 60),
    City("Singapore", "Singapore", 1.3521, 103.8198, 15, 27.5, 1.0, 2340, 45),
    City("Bangkok", "Thailand", 13.7563, 100.5018, 2, 28.5, 2.0, 1500, 70),
    City("Sydney", "Australia", -33.8688, 151.2093, 58, 18.0, 5.0, 1210, 25),
    City("Melbourne", "Australia", -37.8136, 144.9631, 31, 15.0, 5.5, 650, 24),
    City("Auckland", "New Zealand", -36.8485, 174.7633, 26, 15.5, 4.5, 1210, 18),
    City("Buenos Aires", "Argentina", -34.6037, -58.3816, 25, 18.0, 6.5, 1240, 35),
    City("Sao Paulo", "Brazil", -23.5505, -46.6333, 760, 20.0, 3.5, 1450, 55),
    City("Lima", "Peru", -12.0464, -77.0428, 154, 19.5, 3.5, 10, 60),
    City("Bogota", "Colombia", 4.7110, -74.0721, 2640, 14.0, 0.8, 1000, 55),
    City("La Paz", "Bolivia", -16.4897, -68.1193, 3640, 8.5, 2.0, 570, 40),
)

_BY_NAME = {city.name.casefold(): city for city in CITIES}


def city_by_name(name: str) -> City | None:
    """A city by name, ignoring case and surrounding spaces."""
    return _BY_NAME.get(" ".join(name.split()).casefold())
