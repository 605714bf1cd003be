"""AgentQuest's Mastermind: guess a secret code from right-place / right-symbol feedback."""
