"""AgentBench's web browsing (Mind2Web's task format): pick the page element and the operation for each step of a task recorded on the served WebArena sites."""
