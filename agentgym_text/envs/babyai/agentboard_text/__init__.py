"""The BabyAI env's ``"agentboard"`` text format: AgentBoard's BabyAI env re-implemented over our world.

- ``view``: what AgentBoard's ``babyai_env.py`` computes from minigrid's 7x7 view after every action (the
  description, the table of action names to minigrid actions, the error messages), in its words;
- ``mode``: ``AgentBoardMode``, the text mode the env delegates to: runs a listed action's minigrid steps as
  AgentBoard does, answers "check ...", names the expert's commands as actions of the table, and keeps
  AgentBoard's progress rule when its data is given.

The FIX list (what ``agentboard_fixes=True`` corrects) is in the family README.
"""
