"""Inspect AI on our envs, end to end and offline: a scripted eval writes an ``.eval`` log, ``inspect view`` serves
it on 127.0.0.1, and headless Chromium screenshots the viewer on our log.

Needs the ``inspect`` extra and playwright (``make test-integrations`` builds a venv with both) and Debian's
Chromium (``make system``)::

    .venv-integrations/bin/python benchmarks/inspect_viewer.py --out runs/inspect-viewer

Prints the eval's figures, the log path, the viewer's HTTP status and the screenshot's path and size.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from agentgym_text.integrations.inspect import agentgym

SCRIPT = ["guess 0123", "I am not sure.", "guess 0573", "guess 4567", "check valid actions", "guess 8901"]


def scripted(messages, tools, tool_choice, config) -> ModelOutput:
    step = sum(1 for message in messages if message.role == "assistant")
    output = ModelOutput.from_content(model="mockllm", content=f"Action: {SCRIPT[step % len(SCRIPT)]}")
    output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
    return output


def screenshot(url: str, chromium: str, shot: Path) -> list[str]:
    """Open the viewer, then our log, in headless Chromium with every request outside the viewer refused; save a
    screenshot of the log's sample list. Returns the refused requests."""
    from playwright.sync_api import sync_playwright

    refused: list[str] = []

    def only_the_viewer(route) -> None:
        if route.request.url.startswith((url.rstrip("/"), "data:", "blob:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.route("**/*", only_the_viewer)
        page.goto(url)
        page.get_by_text("agentgym-").first.click(timeout=60_000)
        page.get_by_text("progress_rate").first.wait_for(timeout=60_000)
        page.screenshot(path=str(shot))
        browser.close()
    return refused


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="runs/inspect-viewer", help="folder for the log and the screenshot")
    parser.add_argument("--env-id", default="AgentQuest/Mastermind-v0")
    parser.add_argument("--limit", type=int, default=5)
    args = parser.parse_args()
    out = Path(args.out).resolve()
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    task = agentgym(env_id=args.env_id, limit=args.limit, max_steps=7)
    (log,) = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=scripted), log_dir=str(logs))
    means = {score.name: round(score.metrics["mean"].value, 4) for score in log.results.scores}
    print(f"eval: {log.status}, {len(log.samples)} samples, means {means}, {time.perf_counter() - started:.1f} s")
    print(f"log: {log.location}")

    port = free_port()
    inspect = Path(sys.executable).with_name("inspect")
    viewer = subprocess.Popen(
        [str(inspect), "view", "--log-dir", str(logs), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    print(f"viewer: HTTP {answer.status} at {url}")
                    break
            except OSError:
                if time.monotonic() > deadline or viewer.poll() is not None:
                    print("viewer: did not come up")
                    return 1
                time.sleep(0.5)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            print("screenshot: skipped (no chromium; `make system` installs it)")
            return 0
        shot = out / "inspect-viewer.png"
        refused = screenshot(url, chromium, shot)
        print(f"screenshot: {shot} ({shot.stat().st_size} bytes); requests refused (not 127.0.0.1): {refused}")
    finally:
        viewer.terminate()
        viewer.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
