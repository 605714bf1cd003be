"""Seeded content of the forum (Postmill-like): forums, users, posts, comments, votes, subscriptions.
The logged-in user is ``USERNAME`` (id 1)."""

from __future__ import annotations

import random
import sqlite3

from agentgym_text.envs.webarena.sites.names import FIRST, LAST, WORDS

__all__ = ["build_reddit", "USERNAME", "FORUMS"]

USERNAME = "lakeside_reader"
FORUMS = {
    "books": (
        "Books",
        (
            "fantasy novels",
            "poetry",
            "audiobooks",
            "library apps",
            "book clubs",
            "short stories",
            "classic literature",
            "graphic novels",
            "e-readers",
            "mystery series",
        ),
    ),
    "movies": (
        "Movies",
        (
            "film scores",
            "silent films",
            "sci-fi classics",
            "documentaries",
            "film festivals",
            "animated films",
            "movie trailers",
            "cinematography",
            "remakes",
            "horror movies",
        ),
    ),
    "gaming": (
        "Gaming",
        (
            "retro consoles",
            "speedruns",
            "indie games",
            "board games",
            "co-op games",
            "game soundtracks",
            "mods",
            "strategy games",
            "handheld consoles",
            "puzzle games",
        ),
    ),
    "cooking": (
        "Cooking",
        (
            "sourdough",
            "cast iron pans",
            "meal prep",
            "spice blends",
            "fermentation",
            "knife skills",
            "vegan recipes",
            "slow cookers",
            "baking bread",
            "street food",
        ),
    ),
    "science": (
        "Science",
        (
            "black holes",
            "gene editing",
            "climate models",
            "fusion energy",
            "exoplanets",
            "quantum computing",
            "volcanoes",
            "deep sea life",
            "vaccines",
            "particle physics",
        ),
    ),
    "travel": (
        "Travel",
        (
            "night trains",
            "hostels",
            "travel insurance",
            "packing lists",
            "road trips",
            "island hopping",
            "travel cards",
            "mountain huts",
            "city passes",
            "solo travel",
        ),
    ),
    "music": (
        "Music",
        (
            "vinyl records",
            "jazz standards",
            "home studios",
            "guitar pedals",
            "music theory",
            "live albums",
            "synthesizers",
            "choir singing",
            "music festivals",
            "film soundtracks",
        ),
    ),
    "technology": (
        "Technology",
        (
            "mechanical keyboards",
            "home servers",
            "smart homes",
            "open source",
            "password managers",
            "e-bikes",
            "laptops",
            "3D printing",
            "VPNs",
            "Linux",
        ),
    ),
    "gardening": (
        "Gardening",
        (
            "tomatoes",
            "composting",
            "raised beds",
            "houseplants",
            "succulents",
            "seed saving",
            "pollinators",
            "fruit trees",
            "herb gardens",
            "mulching",
        ),
    ),
    "photography": (
        "Photography",
        (
            "film cameras",
            "prime lenses",
            "street photography",
            "night skies",
            "portrait lighting",
            "photo editing",
            "drones",
            "tripods",
            "macro shots",
            "wildlife photos",
        ),
    ),
}
_PATTERNS = (
    "What are your thoughts on {x}?",
    "Beginner question about {x}",
    "My experience with {x} so far",
    "Is {x} worth it in 2023?",
    "Best resources for learning about {x}",
    "Unpopular opinion: {x} is overrated",
    "Weekly discussion thread: {x}",
    "Looking for recommendations on {x}",
    "Why I changed my mind about {x}",
    "Help needed with {x}",
    "A short guide to {x}",
    "{X} appreciation post",
)
_COMMENTS = (
    "Totally agree with this.",
    "I had the opposite experience, honestly.",
    "Thanks for sharing!",
    "Could you post a link to the source?",
    "This is the best post I have read this week.",
    "Not sure about that, it depends on the budget.",
    "Great write-up, saved for later.",
    "I tried this last year and it worked well.",
    "This has been discussed many times already.",
    "Interesting point about the details.",
    "Strongly disagree, but thanks for posting.",
)


def _when(rng: random.Random) -> str:
    return f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"


def build_reddit(connection: sqlite3.Connection, seed: int) -> None:
    rng = random.Random(f"reddit-{seed}")
    connection.executescript("""
        CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE, joined TEXT);
        CREATE TABLE forums (id INTEGER PRIMARY KEY, name TEXT UNIQUE, title TEXT, description TEXT, created TEXT);
        CREATE TABLE subscriptions (forum_id INTEGER, user_id INTEGER, PRIMARY KEY (forum_id, user_id));
        CREATE TABLE posts (id INTEGER PRIMARY KEY, forum_id INTEGER, user_id INTEGER, title TEXT, body TEXT,
            created TEXT, upvotes INTEGER, downvotes INTEGER);
        CREATE TABLE comments (id INTEGER PRIMARY KEY, post_id INTEGER, user_id INTEGER, body TEXT, created TEXT,
            upvotes INTEGER, downvotes INTEGER);
        CREATE TABLE votes (kind TEXT, target INTEGER, value INTEGER, PRIMARY KEY (kind, target));
    """)
    users = [USERNAME]
    while len(users) < 60:
        name = rng.choice(
            [
                f"{rng.choice(FIRST).lower()}_{rng.choice(WORDS)}",
                f"{rng.choice(WORDS)}{rng.randint(1, 999)}",
                f"{rng.choice(LAST)}{rng.choice(WORDS).capitalize()}",
            ]
        )
        if name not in users:
            users.append(name)
    connection.executemany(
        "INSERT INTO users VALUES (?, ?, ?)",
        [(i + 1, u, f"2021-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}") for i, u in enumerate(users)],
    )
    titles: set[str] = set()
    for forum_id, (name, (title, topics)) in enumerate(FORUMS.items(), 1):
        connection.execute(
            "INSERT INTO forums VALUES (?, ?, ?, ?, ?)",
            (forum_id, name, title, f"A place to talk about {title.lower()}.", f"2020-{forum_id:02d}-01"),
        )
        for user in rng.sample(range(2, len(users) + 1), rng.randint(5, 30)):
            connection.execute("INSERT INTO subscriptions VALUES (?, ?)", (forum_id, user))
        if forum_id % 3 == 1:
            connection.execute("INSERT INTO subscriptions VALUES (?, 1)", (forum_id,))
        for _ in range(22):
            topic = rng.choice(topics)
            post_title = rng.choice(_PATTERNS).format(x=topic, X=topic[0].upper() + topic[1:])
            if post_title in titles:
                continue
            titles.add(post_title)
            body = (
                f"I have been thinking about {topic} lately. "
                + rng.choice(_COMMENTS)
                + f" Curious what the {title.lower()} community thinks."
            )
            cursor = connection.execute(
                "INSERT INTO posts (forum_id, user_id, title, body, created, upvotes, downvotes) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    forum_id,
                    rng.randint(2, len(users)),
                    post_title,
                    body,
                    _when(rng),
                    rng.randint(0, 60),
                    rng.randint(0, 15),
                ),
            )
            for _ in range(rng.randint(0, 7)):
                connection.execute(
                    "INSERT INTO comments (post_id, user_id, body, created, upvotes, downvotes) VALUES (?,?,?,?,?,?)",
                    (
                        cursor.lastrowid,
                        rng.randint(2, len(users)),
                        rng.choice(_COMMENTS),
                        _when(rng),
                        rng.randint(0, 12),
                        rng.randint(0, 12),
                    ),
                )
    connection.commit()
