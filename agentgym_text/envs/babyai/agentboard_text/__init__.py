"""The BabyAI env's ``"agentboard"`` text format: AgentBoard's BabyAI env re-implemented over our world.

- ``view``: what AgentBoard's ``babyai_env.py`` computes from minigrid's 7x7 view after every action (the
  description, the table of action names to minigrid actions, the error messages), in its words;
- ``mode``: ``AgentBoardMode``, the format the env delegates to: runs a listed action's minigrid steps as
  AgentBoard does, answers "check ...", and names the expert's commands as actions of the table.

The FIX list (what ``agentboard_fixes=True`` corrects) is in :class:`agentgym_text.envs.babyai.env.BabyAIEnv`.
"""
