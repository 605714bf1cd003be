"""Optional Weights & Biases logging of a finished run (only when asked; ``wandb`` is never required)."""

from __future__ import annotations

from pathlib import Path

from agentgym_text.eval.compare import load_run

__all__ = ["log_to_wandb"]


def log_to_wandb(folder: str | Path, project: str = "agentgym-text") -> bool:
    """Log the run's settings, summary metrics and curves; False (with a message) when wandb is missing."""
    try:
        import wandb  # type: ignore[import-not-found]
    except ImportError:
        print("wandb is not installed (pip install wandb); skipping Weights & Biases logging")
        return False
    run = load_run(folder)
    session = wandb.init(project=project, name=run.name, config=run.settings, reinit=True)
    try:
        summary = {}
        for env_id, m in run.metrics["envs"].items():
            for key in ("success_rate", "progress_rate", "grounding_accuracy"):
                summary[f"{env_id}/{key}"] = m[key]
            for step, value in enumerate(m["progress_curve"]):
                wandb.log({f"{env_id}/progress_curve": value, "step": step})
        for skill, value in run.metrics["subskills"]["from_success_rate"].items():
            summary[f"subskill/{skill}"] = value
        session.summary.update(summary)
    finally:
        session.finish()
    return True
