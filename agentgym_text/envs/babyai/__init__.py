"""BabyAI (minigrid's language-instruction grid worlds) as a text env: AgentBoard's 112 tasks or any level."""
