"""WebArena (AgentBoard/WebArena-v0): web tasks in a real browser on locally served sites."""
