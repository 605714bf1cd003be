"""agentgym-text: the analytical agent benchmarks of AgentBoard, AgentBench and AgentQuest as Gymnasium text envs.

Importing the package registers every env id (no engine, JVM or network is touched at import).

>>> import gymnasium as gym, agentgym_text
>>> env = gym.make("AgentQuest/Mastermind-v0")
>>> obs, info = env.reset(seed=0)
>>> sorted(info)[:3]
['admissible_actions', 'difficulty', 'finish_reason']
"""

from agentgym_text.core.registry import list_envs
from agentgym_text.envs import register_all

__version__ = "0.1.0"
__all__ = ["list_envs", "__version__"]

register_all()
