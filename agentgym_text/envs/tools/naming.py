"""Word pools shared by the generated worlds (people, places, organisations)."""

from __future__ import annotations

__all__ = ["FIRST_NAMES", "LAST_NAMES", "person_names"]

FIRST_NAMES = (
    "Ada",
    "Bruno",
    "Chiara",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kavya",
    "Lucas",
    "Mara",
    "Nikolai",
    "Olivia",
    "Pavel",
    "Quinn",
    "Rosa",
    "Samir",
    "Tessa",
    "Umar",
    "Vera",
    "Wei",
    "Ximena",
    "Yusuf",
    "Zoe",
    "Amara",
    "Bjorn",
    "Carmen",
    "Dario",
    "Esme",
    "Felix",
    "Gwen",
    "Hana",
    "Ivo",
    "Jun",
)
LAST_NAMES = (
    "Abara",
    "Bellini",
    "Castell",
    "Dufresne",
    "Eriksen",
    "Fontaine",
    "Galloway",
    "Haddad",
    "Ivanova",
    "Jansen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quintero",
    "Rahman",
    "Sato",
    "Takahashi",
    "Underwood",
    "Varga",
    "Whitfield",
    "Xu",
    "Yilmaz",
    "Zielinski",
    "Achterberg",
    "Brennan",
    "Costa",
    "Delacroix",
)


def person_names(count: int, offset: int = 0) -> list[str]:
    """``count`` distinct "First Last" names, walking the pools with co-prime strides (deterministic)."""
    names = []
    index = offset
    while len(names) < count:
        name = (
            f"{FIRST_NAMES[(index * 7) % len(FIRST_NAMES)]} {LAST_NAMES[(index * 11 + index // 30) % len(LAST_NAMES)]}"
        )
        if name not in names:
            names.append(name)
        index += 1
    return names
