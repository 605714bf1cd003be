"""Task generators for the forum, modelled on WebArena's reddit (Postmill) intent templates."""

from __future__ import annotations

import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import R, click, rng_for, rows, stop, task, type_

__all__ = ["generate"]


def _forum(name: str) -> list[dict]:
    return [click("link", "Forums"), click("link", name)]


def generate(c: sqlite3.Connection) -> list[dict]:
    out: list[dict] = []
    forums = [r[0] for r in rows(c, "SELECT name FROM forums ORDER BY name")]

    posts = (
        ("Tips for a first-time visitor", "Any advice is welcome, thanks in advance!"),
        ("What got you started?", "Curious how everyone here found this hobby."),
        ("Monthly recommendation thread", "Share one thing you enjoyed this month."),
        ("A question for the experts", "What is the most common beginner mistake?"),
        ("Looking for a study buddy", "Anyone interested in meeting online every week?"),
    )
    for forum, (title, body) in zip(rng_for(40).sample(forums, 5), posts):
        out.append(
            task(
                40,
                'Post in the {{forum}} forum with the title "{{title}}" and the text "{{body}}"',
                {"forum": forum, "title": title, "body": body},
                R,
                _forum(forum)
                + [
                    click("link", "Submit a post"),
                    type_("textbox", "Title", title, 0),
                    type_("textbox", "Body", body, 0),
                    click("button", "Create submission"),
                    stop(),
                ],
                html=[
                    {"url": f"{R}/f/{forum}?sort=new", "locator": "", "required_contents": {"must_include": [title]}}
                ],
                db=[
                    {
                        "site": "reddit",
                        "sql": "SELECT COUNT(*) FROM posts p JOIN forums f ON f.id = "
                        f"p.forum_id WHERE f.name = '{forum}' AND p.user_id = 1 AND p.title = "
                        f"'{title.replace(chr(39), chr(39) * 2)}' AND p.body = '{body}'",
                        "expected": 1,
                    }
                ],
            )
        )

    def newest(forum: str) -> tuple:
        return rows(
            c,
            "SELECT p.id, p.title, u.username FROM posts p JOIN forums f ON f.id = p.forum_id JOIN users u "
            "ON u.id = p.user_id WHERE f.name = ? ORDER BY p.created DESC, p.id DESC LIMIT 1",
            (forum,),
        )[0]

    for forum in rng_for(41).sample(forums, 5):
        pid, title, _ = newest(forum)
        out.append(
            task(
                41,
                "Upvote the newest post in the {{forum}} forum",
                {"forum": forum},
                R,
                _forum(forum) + [click("link", "New"), click("button", f"Upvote {title}"), stop()],
                html=[
                    {
                        "url": f"{R}/f/{forum}/{pid}",
                        "locator": "",
                        "required_contents": {"must_include": ["You upvoted this submission"]},
                    }
                ],
                db=[
                    {
                        "site": "reddit",
                        "sql": f"SELECT value FROM votes WHERE kind = 'post' AND target = {pid}",
                        "expected": 1,
                    }
                ],
            )
        )

    replies = (
        "Thanks, this was really helpful!",
        "I could not agree more.",
        "Great question, following this.",
        "Interesting, I had never thought about it that way.",
    )
    all_posts = rows(c, "SELECT p.id, p.title, f.name FROM posts p JOIN forums f ON f.id = p.forum_id ORDER BY p.id")
    for (pid, title, forum), text in zip(rng_for(42).sample(all_posts, 4), replies):
        out.append(
            task(
                42,
                'Reply to the post "{{title}}" in the {{forum}} forum with my comment "{{text}}"',
                {"title": title, "forum": forum, "text": text},
                R,
                _forum(forum)
                + [click("link", title), type_("textbox", "Comment", text, 0), click("button", "Post comment"), stop()],
                html=[{"url": f"{R}/f/{forum}/{pid}", "locator": "", "required_contents": {"must_include": [text]}}],
                db=[
                    {
                        "site": "reddit",
                        "sql": f"SELECT COUNT(*) FROM comments WHERE post_id = {pid} AND "
                        f"user_id = 1 AND body = '{text.replace(chr(39), chr(39) * 2)}'",
                        "expected": 1,
                    }
                ],
            )
        )

    unsubscribed = [
        r[0]
        for r in rows(
            c,
            "SELECT name FROM forums WHERE id NOT IN (SELECT forum_id FROM "
            "subscriptions WHERE user_id = 1) ORDER BY name",
        )
    ]
    for forum in rng_for(43).sample(unsubscribed, 3):
        out.append(
            task(
                43,
                "Subscribe to the {{forum}} forum",
                {"forum": forum},
                R,
                [click("link", "Forums"), click("button", f"Subscribe {forum}"), stop()],
                html=[{"url": f"{R}/f/{forum}", "locator": "", "required_contents": {"must_include": ["Unsubscribe"]}}],
                db=[
                    {
                        "site": "reddit",
                        "sql": "SELECT COUNT(*) FROM subscriptions s JOIN forums f ON f.id = "
                        f"s.forum_id WHERE f.name = '{forum}' AND s.user_id = 1",
                        "expected": 1,
                    }
                ],
            )
        )

    top_ok = []
    for forum in forums:
        best = rows(
            c,
            "SELECT p.title, p.upvotes FROM posts p JOIN forums f ON f.id = p.forum_id WHERE f.name = ? "
            "ORDER BY p.upvotes DESC, p.id LIMIT 2",
            (forum,),
        )
        if best[0][1] != best[1][1]:
            top_ok.append((forum, best[0][0]))
    for forum, title in rng_for(44).sample(top_ok, 4):
        out.append(
            task(
                44,
                "What is the title of the most upvoted post in the {{forum}} forum?",
                {"forum": forum},
                R,
                _forum(forum) + [click("link", "Top"), stop(title)],
                answer=("fuzzy_match", [title]),
                progress={"url": f"{R}/f/{forum}?sort=top", "contents": [title]},
            )
        )

    for pid, title, forum in rng_for(45).sample(all_posts, 4):
        count = rows(c, "SELECT COUNT(*) FROM comments WHERE post_id = ?", (pid,))[0][0]
        out.append(
            task(
                45,
                'How many comments does the post "{{title}}" in the {{forum}} forum have?',
                {"title": title, "forum": forum},
                R,
                _forum(forum) + [click("link", title), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{R}/f/{forum}/{pid}", "contents": [f"{count} comments"]},
            )
        )

    for forum in rng_for(46).sample(forums, 4):
        pid, title, user = newest(forum)
        count = rows(
            c,
            "SELECT COUNT(*) FROM comments c JOIN users u ON u.id = c.user_id WHERE u.username = ? AND "
            "c.downvotes > c.upvotes",
            (user,),
        )[0][0]
        out.append(
            task(
                46,
                "Tell me the count of comments that have received more downvotes than upvotes for the "
                "user who made the latest post on the {{forum}} forum.",
                {"forum": forum},
                R,
                _forum(forum) + [click("link", "New"), click("link", user, nth=0), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{R}/user/{user}", "contents": ["Joined"]},
            )
        )

    for n, forum in enumerate(rng_for(47).sample(forums, 4)):
        if n % 2:
            pid, title, _ = newest(forum)
            which, sort = "newest", "New"
        else:
            pid, title = rows(
                c,
                "SELECT p.id, p.title FROM posts p JOIN forums f ON f.id = p.forum_id WHERE "
                "f.name = ? ORDER BY p.upvotes DESC, p.id LIMIT 1",
                (forum,),
            )[0]
            which, sort = "most upvoted", "Top"
        out.append(
            task(
                47,
                "Open the thread of the {{which}} post in the {{forum}} forum",
                {"which": which, "forum": forum},
                R,
                _forum(forum) + [click("link", sort), click("link", title), stop()],
                url=f"{R}/f/{forum}/{pid}",
            )
        )

    new_forums = (
        ("birdwatching", "Sightings, field guides and binoculars"),
        ("woodworking", "Share your projects, tools and techniques"),
        ("chess", "Openings, puzzles and tournament news"),
    )
    for name, description in new_forums:
        out.append(
            task(
                48,
                'Create a new forum named {{name}}, with the description "{{description}}"',
                {"name": name, "description": description},
                R,
                [
                    click("link", "Create forum"),
                    type_("textbox", "Name", name, 0),
                    type_("textbox", "Description", description, 0),
                    click("button", "Create forum"),
                    stop(),
                ],
                html=[{"url": f"{R}/f/{name}", "locator": "", "required_contents": {"must_include": [description]}}],
                db=[
                    {
                        "site": "reddit",
                        "sql": f"SELECT description FROM forums WHERE name = '{name}'",
                        "expected": description,
                    }
                ],
            )
        )

    for forum in rng_for(49).sample(forums, 4):
        count = rows(
            c, "SELECT COUNT(*) FROM subscriptions s JOIN forums f ON f.id = s.forum_id WHERE f.name = ?", (forum,)
        )[0][0]
        out.append(
            task(
                49,
                "How many subscribers does the {{forum}} forum have?",
                {"forum": forum},
                R,
                [click("link", "Forums"), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{R}/forums", "contents": [f"{count} subscribers"]},
            )
        )
    return out
