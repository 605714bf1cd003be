"""Evaluation: the runner (batched rollouts into resumable JSONL files), metrics, and the HTML report."""

from agentgym_text.eval.runner import EvalConfig, RunResult, run_eval

__all__ = ["EvalConfig", "RunResult", "run_eval"]
