"""AgentBoard's Tool-Query (weather, movie, academia) and Tool-Operation (todo, sheet) with offline backends.

Each tool is a subpackage with its data (generated from a seed, or authored), a ``Toolkit`` that serves the
original function list, and a task generator. ``calls`` reads actions, ``schema`` checks arguments,
``grading`` compares answers, ``golden`` turns golden calls into subgoals and ``env`` is the Gymnasium env.
"""
