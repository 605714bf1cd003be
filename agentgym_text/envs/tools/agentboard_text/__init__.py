"""The tool env's ``"agentboard"`` text format: AgentBoard's tool envs re-implemented over our offline backends.

- ``mode``: ``AgentBoardMode``, the format ``ToolEnv`` delegates to (first observation, one step, help, call text);
- ``step``: one message as AgentBoard's harness and env take it (its dispatch, refusals and "finish" rule);
- ``words``: AgentBoard's texts and call syntax (agent parser, first observations, errors, help answer);
- ``functions``, ``weather``, ``sheet``: AgentBoard's toolkit code ported over our data;
- ``api``: our backends served in the web APIs' response schemas that AgentBoard's toolkits read.

The FIX list (what ``agentboard_fixes=True`` corrects) is in :mod:`agentgym_text.envs.tools.env`.
"""
