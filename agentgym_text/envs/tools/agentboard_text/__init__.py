"""The tool env's ``"agentboard"`` text format: AgentBoard's tool envs re-implemented over our offline backends.

- ``mode``: ``AgentBoardMode``, the text mode ``ToolEnv`` delegates to (first observation, one step, help, call text,
  AgentBoard's progress over its data folder's tasks);
- ``step``: one message as AgentBoard's harness and env take it (its dispatch, refusals and "finish" rule);
- ``words``: AgentBoard's texts and call syntax (agent parser, first observations, errors, help answer);
- ``functions``, ``weather``, ``sheet``: AgentBoard's toolkit code ported over our data;
- ``api``: our backends served in the web APIs' response schemas that AgentBoard's toolkits read.

The FIX list (what the mode's ``fixes`` corrects) is in the family's README.
"""
