"""The user names the generated OS tasks draw from.

Each generator takes a fixed prefix (files 10, retrieval 16, text processing all 20): a name added anywhere but at
the end changes every task generated from it.
"""

__all__ = ["USERS"]

USERS = (
    "alice",
    "bob",
    "carol",
    "dave",
    "erin",
    "frank",
    "grace",
    "heidi",
    "ivan",
    "judy",
    "mallory",
    "oscar",
    "peggy",
    "trent",
    "victor",
    "wendy",
    "admin",
    "test",
    "guest",
    "deploy",
)
