"""AgentBoard's PDDL games (Blocksworld, Gripper, Barman, Tyreworld) as one text env, ``AgentBoard/PDDL-v0``."""
