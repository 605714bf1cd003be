"""Word pools the generated worlds of several families draw from: people's first and last names.

The families take fixed slices of them (the tool worlds the first 36 and 30, the DB tables fewer), so a pool only ever
grows at its end: a name inserted anywhere else changes every task generated from it.
"""

from __future__ import annotations

__all__ = ["FIRST_NAMES", "LAST_NAMES"]

FIRST_NAMES = tuple(
    (
        "Ada Bruno Chiara Dmitri Elena Farid Greta Hiro Ines Jonas Kavya Lucas Mara Nikolai Olivia Pavel "
        "Quinn Rosa Samir Tessa Umar Vera Wei Ximena Yusuf Zoe Amara Bjorn Carmen Dario Esme Felix Gwen Hana "
        "Ivo Jun Kofi Lena Milo Nadia Oskar Priya Rafael Sofia Tomas Uma Viktor Wanda Xavier Yara Zeno Aiko "
        "Basil Cleo Dev Elif Fabio Gaia Hugo Isla Jasper Kira Leon Maya Noor Otto Pia Reza Selin Theo Una "
        "Vito Willa Yuki"
    ).split()
)
"""First names, distinct."""

LAST_NAMES = tuple(
    (
        "Abara Bellini Castell Dufresne Eriksen Fontaine Galloway Haddad Ivanova Jansen Kowalski Lindqvist "
        "Moreau Nakamura Okafor Petrov Quintero Rahman Sato Takahashi Underwood Varga Whitfield Xu Yilmaz "
        "Zielinski Achterberg Brennan Costa Delacroix Esposito Ferreira Gruber Horvath Iqbal Jovanovic Kimura "
        "Laine Mensah Novak Oyelaran Pereira Rossi Svensson Tanaka Ueda Vasquez Wagner Yamada Zhou Alvarez "
        "Bauer Chen Demir Ekman Falk Greco Hansen Ito Jensen Kaur Lopez Marin Nielsen Ortiz Park Quinlan "
        "Reyes Silva Toivonen Ulloa Vogel Weber"
    ).split()
)
"""Last names, distinct."""
