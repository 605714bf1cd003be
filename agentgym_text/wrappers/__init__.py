"""Wrappers that work on any gymnasium text env: step limit, repetition tracking, history window, recorder."""

from agentgym_text.core.step_limit import StepLimit
from agentgym_text.wrappers.history import HistoryWindow
from agentgym_text.wrappers.recorder import TrajectoryRecorder
from agentgym_text.wrappers.repetition import RepetitionTracker

__all__ = ["HistoryWindow", "RepetitionTracker", "StepLimit", "TrajectoryRecorder"]
