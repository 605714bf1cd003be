"""The WebShop expert: search the goal's key terms, open the target (or an equally matching product), set the
options the goal names, buy. It acts from whatever page the session is on, so it can take over mid-episode.

When the key terms do not surface a matching product within five pages (possible in bigger catalogues), it
goes back and searches the target's title instead.
"""

from __future__ import annotations

from agentgym_text.envs.webshop.reward import choose_options
from agentgym_text.envs.webshop.session import Session

__all__ = ["expert_action"]


def expert_action(session: Session, keywords: str) -> str | None:
    goal = session.goal
    if session.page == "end":
        return None
    if session.page == "init":
        if keywords not in session.searched:
            return f"search[{keywords}]"
        return f"search[{session.catalogue.product(goal.asin).title.lower()}]"
    if session.page == "sub":
        return "click[< Prev]"
    if session.page == "item":
        if session.score(session.asin) < 1.0:
            return "click[< Prev]"
        for group, value in choose_options(session.product(), goal).items():
            if session.options.get(group) != value:
                return f"click[{value}]"
        return "click[Buy Now]"
    listed = session.page_asins()
    if goal.asin in listed:
        return f"click[{goal.asin}]"
    for asin in listed:
        if session.score(asin) == 1.0:
            return f"click[{asin}]"
    if session.page_num < session.max_pages and len(session.hits) > session.page_num * session.page_size:
        return "click[Next >]"
    return "click[Back to Search]"
