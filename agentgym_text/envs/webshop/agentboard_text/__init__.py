"""What ``agentboard_fixes=False`` restores of AgentBoard's WebShop (its Flask server ``web_agent_site/app.py`` and
``engine/goal.py``, its client ``environment/webshop_env.py``, its harness ``tasks/webshop.py``): its scoring and
its pages, in ``mode.py`` (the text mode) and ``reward.py`` (WebShop's reward with its quirks). The default fixes
each of these:

- FIX (item score): the item page's score is the product's best option combination; AgentBoard's loop resets its
  maximum at every combination, so it keeps the LAST combination's reward unless one scores 1.0.
- FIX (reward quirks): WebShop's reward (``agentboard_reward``) matches an attribute as a raw substring of the
  title, bullets or description ("red" in "preferred"), and an option by ``token_set_ratio > 85`` after its colour
  normalisation (the first colour word of its list found in the value: "ash blonde" and "ash brown" compare
  equal); the default matches whole words, sizes exactly, and counts chosen options (``reward.py``).
- FIX (reset[] graded): AgentBoard's harness spends step 0 of its 30 on a ``reset[]`` it grades as a valid action,
  leaving the agent 29; the default gives the agent all 30.
- Results pages: AgentBoard's server lists 3 products a page (the page scored for progress) and its client
  refuses ``Next >`` only from page 6; the default lists 10 a page, as WebShop, up to page 5.

- FIX (result count, prices): AgentBoard's results page prints "Total results: 15" whatever the search found, and
  a price as Python prints the float ("$31.0").
- FIX (selected options): AgentBoard's scraper shows a selected option as ``[[value]]`` only when "'value'" is in
  the page URL, where options are URL-quoted: a multi-word value never shows as selected.
- FIX (unknown clicks): a click AgentBoard does not know on the start page or a sub page re-renders the page (a
  valid step); the default answers with the click error.
- FIX (recent observation): AgentBoard's click and page-limit errors quote the last text its env returned, a format
  error or "There is no [Search] button" included; the default quotes the last page.
- FIX (reviews): AgentBoard's server never loads reviews, so every rating reads "N.A." and the Reviews page is
  empty; the default shows the catalogue's.

The product-name nouns stay the vocabulary's in both (WebShop tags them with spaCy's ``en_core_web_lg``).
"""
