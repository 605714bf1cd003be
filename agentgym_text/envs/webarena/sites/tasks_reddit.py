"""Task generators for the forum, modelled on WebArena's reddit (Postmill) intent templates."""

from __future__ import annotations

import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import (
    REDDIT,
    Instance,
    SeededDatabase,
    Template,
    change,
    click,
    db_check,
    fill_in,
    make_tasks,
    navigation,
    page_includes,
    question,
    rng_for,
)

__all__ = ["generate", "TEMPLATES", "most_upvoted_post"]

NEW_POSTS = (
    ("Tips for a first-time visitor", "Any advice is welcome, thanks in advance!"),
    ("What got you started?", "Curious how everyone here found this hobby."),
    ("Monthly recommendation thread", "Share one thing you enjoyed this month."),
    ("A question for the experts", "What is the most common beginner mistake?"),
    ("Looking for a study buddy", "Anyone interested in meeting online every week?"),
)
REPLIES = (
    "Thanks, this was really helpful!",
    "I could not agree more.",
    "Great question, following this.",
    "Interesting, I had never thought about it that way.",
)
NEW_FORUMS = (
    ("birdwatching", "Sightings, field guides and binoculars"),
    ("woodworking", "Share your projects, tools and techniques"),
    ("chess", "Openings, puzzles and tournament news"),
)


def _forums(db: SeededDatabase) -> list[str]:
    return db.column("SELECT name FROM forums ORDER BY name")


def _all_posts(db: SeededDatabase) -> list[tuple[int, str, str]]:
    """(id, title, forum) of every post."""
    return db.rows("SELECT p.id, p.title, f.name FROM posts p JOIN forums f ON f.id = p.forum_id ORDER BY p.id")


def _newest_post(db: SeededDatabase, forum: str) -> tuple[int, str, str]:
    """(id, title, author) of the newest post in ``forum``."""
    return db.rows(
        "SELECT p.id, p.title, u.username FROM posts p JOIN forums f ON f.id = p.forum_id JOIN users u "
        "ON u.id = p.user_id WHERE f.name = ? ORDER BY p.created DESC, p.id DESC LIMIT 1",
        (forum,),
    )[0]


def most_upvoted_post(db: SeededDatabase, forum: str) -> tuple[int, str]:
    """(id, title) of the most upvoted post in ``forum`` (the first posted among equals)."""
    return db.rows(
        "SELECT p.id, p.title FROM posts p JOIN forums f ON f.id = p.forum_id WHERE f.name = ? "
        "ORDER BY p.upvotes DESC, p.id LIMIT 1",
        (forum,),
    )[0]


def _to_forum(name: str) -> list[dict]:
    return [click("link", "Forums"), click("link", name)]


def _post_page(forum: str, pid: int) -> str:
    return f"{REDDIT}/f/{forum}/{pid}"


def _submit_post(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"forum": forum, "title": title, "body": body},
            [
                *_to_forum(forum),
                click("link", "Submit a post"),
                *fill_in({"Title": title, "Body": body}, "Create submission"),
            ],
            page_includes(f"{REDDIT}/f/{forum}?sort=new", title),
            db_check(
                "reddit",
                "SELECT COUNT(*) FROM posts p JOIN forums f ON f.id = p.forum_id WHERE f.name = ? AND p.user_id = 1 "
                "AND p.title = ? AND p.body = ?",
                (forum, title, body),
                1,
            ),
        )
        for forum, (title, body) in zip(rng_for(40).sample(_forums(db), 5), NEW_POSTS)
    ]


def _upvote_newest(db: SeededDatabase) -> list[Instance]:
    instances = []
    for forum in rng_for(41).sample(_forums(db), 5):
        pid, title, _ = _newest_post(db, forum)
        instances.append(
            change(
                {"forum": forum},
                [*_to_forum(forum), click("link", "New"), click("button", f"Upvote {title}")],
                page_includes(_post_page(forum, pid), "You upvoted this submission"),
                db_check("reddit", "SELECT value FROM votes WHERE kind = 'post' AND target = ?", (pid,), 1),
            )
        )
    return instances


def _reply(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"title": title, "forum": forum, "text": text},
            [
                *_to_forum(forum),
                click("link", title),
                *fill_in({"Comment": text}, "Post comment"),
            ],
            page_includes(_post_page(forum, pid), text),
            db_check(
                "reddit",
                "SELECT COUNT(*) FROM comments WHERE post_id = ? AND user_id = 1 AND body = ?",
                (pid, text),
                1,
            ),
        )
        for (pid, title, forum), text in zip(rng_for(42).sample(_all_posts(db), 4), REPLIES)
    ]


def _subscribe(db: SeededDatabase) -> list[Instance]:
    unsubscribed = db.column(
        "SELECT name FROM forums WHERE id NOT IN (SELECT forum_id FROM subscriptions WHERE user_id = 1) ORDER BY name",
    )
    return [
        change(
            {"forum": forum},
            [click("link", "Forums"), click("button", f"Subscribe {forum}")],
            page_includes(f"{REDDIT}/f/{forum}", "Unsubscribe"),
            db_check(
                "reddit",
                "SELECT COUNT(*) FROM subscriptions s JOIN forums f ON f.id = s.forum_id WHERE f.name = ? "
                "AND s.user_id = 1",
                (forum,),
                1,
            ),
        )
        for forum in rng_for(43).sample(unsubscribed, 3)
    ]


def _top_post_title(db: SeededDatabase) -> list[Instance]:
    untied = []
    for forum in _forums(db):
        best = db.rows(
            "SELECT p.title, p.upvotes FROM posts p JOIN forums f ON f.id = p.forum_id WHERE f.name = ? "
            "ORDER BY p.upvotes DESC, p.id LIMIT 2",
            (forum,),
        )
        if best[0][1] != best[1][1]:
            untied.append((forum, best[0][0]))
    return [
        question(
            {"forum": forum},
            [*_to_forum(forum), click("link", "Top")],
            title,
            reference=("fuzzy_match", [title]),
            page=f"{REDDIT}/f/{forum}?sort=top",
            seen=[title],
        )
        for forum, title in rng_for(44).sample(untied, 4)
    ]


def _comment_count(db: SeededDatabase) -> list[Instance]:
    instances = []
    for pid, title, forum in rng_for(45).sample(_all_posts(db), 4):
        count = db.value("SELECT COUNT(*) FROM comments WHERE post_id = ?", (pid,))
        steps, seen = [*_to_forum(forum), click("link", title)], [f"{count} comments"]
        instances.append(
            question({"title": title, "forum": forum}, steps, str(count), page=_post_page(forum, pid), seen=seen)
        )
    return instances


def _author_downvoted_comments(db: SeededDatabase) -> list[Instance]:
    instances = []
    for forum in rng_for(46).sample(_forums(db), 4):
        _, _, author = _newest_post(db, forum)
        count = db.value(
            "SELECT COUNT(*) FROM comments c JOIN users u ON u.id = c.user_id WHERE u.username = ? AND "
            "c.downvotes > c.upvotes",
            (author,),
        )
        steps = [*_to_forum(forum), click("link", "New"), click("link", author, nth=0)]
        instances.append(question({"forum": forum}, steps, str(count), page=f"{REDDIT}/user/{author}", seen=["Joined"]))
    return instances


def _open_thread(db: SeededDatabase) -> list[Instance]:
    instances = []
    for n, forum in enumerate(rng_for(47).sample(_forums(db), 4)):
        if n % 2:
            pid, title, _ = _newest_post(db, forum)
            which, sort = "newest", "New"
        else:
            pid, title = most_upvoted_post(db, forum)
            which, sort = "most upvoted", "Top"
        steps = [*_to_forum(forum), click("link", sort), click("link", title)]
        instances.append(navigation({"which": which, "forum": forum}, steps, _post_page(forum, pid)))
    return instances


def _create_forum(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"name": name, "description": description},
            [
                click("link", "Create forum"),
                *fill_in({"Name": name, "Description": description}, "Create forum"),
            ],
            page_includes(f"{REDDIT}/f/{name}", description),
            db_check("reddit", "SELECT description FROM forums WHERE name = ?", (name,), description),
        )
        for name, description in NEW_FORUMS
    ]


def _subscriber_count(db: SeededDatabase) -> list[Instance]:
    instances = []
    for forum in rng_for(49).sample(_forums(db), 4):
        count = db.value(
            "SELECT COUNT(*) FROM subscriptions s JOIN forums f ON f.id = s.forum_id WHERE f.name = ?", (forum,)
        )
        steps, seen = [click("link", "Forums")], [f"{count} subscribers"]
        instances.append(question({"forum": forum}, steps, str(count), page=f"{REDDIT}/forums", seen=seen))
    return instances


TEMPLATES = (
    Template(
        40, 'Post in the {{forum}} forum with the title "{{title}}" and the text "{{body}}"', REDDIT, _submit_post
    ),
    Template(41, "Upvote the newest post in the {{forum}} forum", REDDIT, _upvote_newest),
    Template(42, 'Reply to the post "{{title}}" in the {{forum}} forum with my comment "{{text}}"', REDDIT, _reply),
    Template(43, "Subscribe to the {{forum}} forum", REDDIT, _subscribe),
    Template(44, "What is the title of the most upvoted post in the {{forum}} forum?", REDDIT, _top_post_title),
    Template(45, 'How many comments does the post "{{title}}" in the {{forum}} forum have?', REDDIT, _comment_count),
    Template(
        46,
        "Tell me the count of comments that have received more downvotes than upvotes for the "
        "user who made the latest post on the {{forum}} forum.",
        REDDIT,
        _author_downvoted_comments,
    ),
    Template(47, "Open the thread of the {{which}} post in the {{forum}} forum", REDDIT, _open_thread),
    Template(48, 'Create a new forum named {{name}}, with the description "{{description}}"', REDDIT, _create_forum),
    Template(49, "How many subscribers does the {{forum}} forum have?", REDDIT, _subscriber_count),
)


def generate(connection: sqlite3.Connection) -> list[dict]:
    return make_tasks(TEMPLATES, SeededDatabase(connection))
