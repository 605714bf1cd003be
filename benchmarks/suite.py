"""AgentBoard's whole suite through the evaluation runner against a local scripted chat server with a given latency.

For each slot count (``--slots``) it runs ``agentgym-text eval --agent openai --envs <ids> --tasks <tasks>
--num-envs N`` in a subprocess (only the CLI: the script measures whatever the runner does) and prints the wall
time, the user and system CPU of the runner's whole process tree (``getrusage(RUSAGE_CHILDREN)``: the runner, its
worker processes, JVMs, Chromium and Playwright drivers, each once it has exited and been waited for; a process
left to init is missing there, so the sampled figure below is printed beside it), the peak memory of that tree (RSS
and PSS summed over every process under the runner, sampled every ``--memory-s`` seconds from /proc), the
episodes played against those planned, the CLI's exit code, and per family the episodes, steps and CPU per step.

The server (``ScriptedChatServer``, threads of this process, so its CPU is not the runner's) answers every request
after ``--latency-ms`` with a plausible action of the request's family (told by its system prompt), picked from a
short fixed list by a hash of the prompt: not the expert, so most episodes run to their step budget (the most
steps a run can make), some actions are refused, and episodes are the same in every run.

CPU per step per family: every ``--sample-s`` the sampler reads the CPU (utime + stime, from /proc) of each process
in the tree (a process counts up to its last sample; "sampled" is their sum) and the rows appended to
``trajectories.jsonl`` since the last sample. A process that serves one family only (``PROCESS_FAMILIES``: Chromium
and its Playwright driver for WebArena, the JVM for ScienceWorld) counts for that family's id; the rest of an
interval's CPU (the runner's own process, which runs the in-process engines) goes to the families in proportion
to their new steps, an approximation: the runner plays the ids side by side. CPU of intervals without steps (an
engine's start-up) goes to the next steps; the runner's own start-up, before the first step, is shown apart, and
"after the last step" is the sampled CPU no step took (shutdown). The CPU of each kind of process is printed too.

    AGENTGYM_TEXT_JERICHO_DIR=../shared/jericho-game-suite .venv/bin/python benchmarks/suite.py \\
        [--slots 16,32,64] [--latency-ms 100] [--envs ID,ID] [--tasks all|quick|N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

# this folder holds files named like the engines' packages (jericho.py, scienceworld.py): keep it off the path
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE] + [str(_ROOT)]

from agentgym_text.agents.prompts import load_prompt  # noqa: E402
from agentgym_text.core.registry import list_envs  # noqa: E402
from agentgym_text.testing.chat_server import ScriptedChatServer  # noqa: E402
from benchmarks.scale import memory_tree_mib, process_tree  # noqa: E402

__all__ = ["main", "suite_ids", "family_policy", "TreeSampler"]

ACTIONS: dict[str, tuple[str, ...]] = {
    "alfworld": ("look", "inventory", "go to countertop 1", "go to cabinet 1", "open cabinet 1", "go to fridge 1"),
    "babyai": ("turn left", "move forward", "turn right", "move forward", "go to red ball 1"),
    "jericho": ("look", "north", "south", "east", "west", "inventory", "up"),
    "pddl": ("pickup b1", "putdown b1", "unstack b1 b2", "stack b1 b2", "check valid actions"),
    "scienceworld": ("look around", "inventory", "go to kitchen", "go to hallway", "open door to kitchen"),
    "tools": (
        'get_latitude_longitude with Action Input: {"name": "London"}',
        "check_valid_actions",
        'get_elevation with Action Input: {"latitude": 51.5074, "longitude": -0.1278}',
    ),
    "webarena": ("scroll [down]", "scroll [up]", "click [1]", "go_back"),
    "webshop": ("search[red shirt]", "search[blue jeans medium]", "search[wireless headphones]"),
}
"""Per family, the actions the server picks from (AgentBoard's text, the default for the AgentBoard ids); WebShop
searches on its search page and clicks a button of the page otherwise."""

_BUTTON = re.compile(r"\[([^\[\]\n]+)\]")
_ENV_ID = re.compile(rb'"env_id": "([^"]+)"')

_FALLBACK = ("check valid actions",)
_CLK_TCK = os.sysconf("SC_CLK_TCK")

PROCESS_FAMILIES = {"chromium": "webarena", "playwright driver": "webarena", "JVM": "scienceworld"}
"""The kinds of process (``process_kind``) that serve one family only (with two ids of one family in a run, the
CPU goes to the last of them)."""


def suite_ids() -> list[str]:
    """The AgentBoard ids, in the registry's order."""
    return [entry.env_id for entry in list_envs() if entry.env_id.startswith("AgentBoard/")]


def family_policy(env_ids: list[str], latency_s: float):
    """The server's policy: after ``latency_s``, ``Action: <one of the family's ACTIONS>``, the family told by the
    request's system prompt and the action by a CRC of the last message (same prompt, same action)."""
    families = {entry.env_id: entry.family for entry in list_envs()}
    by_system = {load_prompt(families[env_id]).system: families[env_id] for env_id in env_ids}

    def policy(messages: list[dict[str, Any]]) -> str:
        if latency_s > 0:
            time.sleep(latency_s)  # the server answers each request in its own thread: the waits overlap
        system = next((str(m.get("content", "")) for m in messages if m.get("role") == "system"), "")
        family = by_system.get(system, "")
        actions = ACTIONS.get(family, _FALLBACK)
        last = str(messages[-1].get("content", "")) if messages else ""
        pick = zlib.crc32(last.encode())
        if family == "webshop":
            buttons = [b for b in _BUTTON.findall(last.rsplit("WEB PAGE:", 1)[-1]) if b != "Search"]
            if buttons:  # not the search page (whose only button is [Search])
                return f"Action: click[{buttons[pick % len(buttons)]}]"
        return f"Action: {actions[pick % len(actions)]}"

    return policy


def tree_cpu_s(pid: int) -> dict[tuple[int, int], tuple[str, float]]:
    """Kind (``process_kind``) and own user + system CPU seconds of each live process under ``pid``, by (pid, start
    time)."""
    found = {}
    for current in process_tree(pid):
        try:
            name, rest = Path(f"/proc/{current}/stat").read_text().split("(", 1)[1].rsplit(")", 1)
        except (OSError, ValueError):
            continue
        fields = rest.split()
        found[current, int(fields[19])] = (
            process_kind(name, current == pid),
            (int(fields[11]) + int(fields[12])) / _CLK_TCK,
        )
    return found


def process_kind(name: str, root: bool = False) -> str:
    """What a process of the runner's tree is, from its name in /proc (``root``: the runner itself)."""
    if root:
        return "runner"
    if "chrom" in name:
        return "chromium"
    if name.startswith("node"):
        return "playwright driver"
    if name == "java":
        return "JVM"
    return "python" if name.startswith("python") else name


class TreeSampler:
    """Samples a process tree in a thread: peak RSS/PSS, and its CPU split over the families of new trajectory
    rows (see the module docstring)."""

    def __init__(
        self,
        pid: int,
        trajectories: Path,
        every_s: float,
        memory_every_s: float = 5.0,
        family_ids: dict[str, str] | None = None,
    ):
        self.pid = pid
        self.family_ids = dict(family_ids or {})
        """Family -> the run's id of it, for the processes that serve one family (``PROCESS_FAMILIES``)."""
        self.cpu_by_kind: Counter[str] = Counter()
        self.trajectories = trajectories
        self.every_s = every_s
        self.memory_every_s = memory_every_s
        """PSS costs the kernel a walk of every page table of the tree (~0.2 s of CPU for Chromium's and the JVMs'
        gigabytes): every half second it took a quarter of this 2-core machine from the run it measured."""
        self._memory_at = float("-inf")
        self.own_cpu_s = 0.0
        """The sampler thread's own CPU (not the runner's; on this machine it competes with the run)."""
        self.peak_rss = self.peak_pss = 0.0
        self.cpu_by_id: Counter[str] = Counter()
        self.startup_cpu = 0.0
        self.steps_by_id: Counter[str] = Counter()
        self._offset = 0
        self._partial = b""
        self._cpu_seen: dict[tuple[int, int], float] = {}
        self.sampled_cpu = 0.0
        self._pending = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tree-sampler", daemon=True)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.sample()
        self.own_cpu_s = time.thread_time()

    def _new_rows(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        try:
            with self.trajectories.open("rb") as handle:
                if os.fstat(handle.fileno()).st_size < self._offset:  # the file was started over
                    self._offset, self._partial = 0, b""
                handle.seek(self._offset)
                data = handle.read()
        except OSError:
            return counts
        self._offset += len(data)
        *lines, self._partial = (self._partial + data).split(b"\n")
        for line in lines:
            found = _ENV_ID.search(line)  # a regex, not a JSON parse of every row (WebArena's are kilobytes)
            if found:
                counts[found.group(1).decode()] += 1
        return counts

    def sample(self) -> None:
        if time.monotonic() - self._memory_at >= self.memory_every_s:
            self._memory_at = time.monotonic()
            rss, pss = memory_tree_mib(self.pid)
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)
        owned: Counter[str] = Counter()  # CPU of processes that serve one id's family only
        for process, (kind, cpu) in tree_cpu_s(self.pid).items():  # a process's CPU counts up to its last sample
            delta = max(0.0, cpu - self._cpu_seen.get(process, 0.0))
            self._cpu_seen[process] = cpu
            self.sampled_cpu += delta
            self.cpu_by_kind[kind] += delta
            owner = self.family_ids.get(PROCESS_FAMILIES.get(kind, ""))
            if owner is None:
                self._pending += delta
            else:
                owned[owner] += delta
        counts = self._new_rows()
        steps = sum(counts.values())
        if steps and not self.steps_by_id:  # the runner's start-up (imports, planning) is no family's
            self.startup_cpu, self._pending = self._pending + sum(owned.values()), 0.0
            owned.clear()
        self.cpu_by_id.update(owned)
        if steps:
            for env_id, count in counts.items():
                self.cpu_by_id[env_id] += self._pending * count / steps
            self.steps_by_id.update(counts)
            self._pending = 0.0


def run_suite(
    env_ids: list[str],
    tasks: str,
    slots: int,
    base_url: str,
    out: Path,
    sample_s: float,
    extra: list[str],
    memory_s: float = 5.0,
) -> dict[str, Any]:
    """One ``eval`` run in a subprocess, measured."""
    command = [
        sys.executable, "-m", "agentgym_text.cli", "eval", "--agent", "openai", "--model", "scripted",
        "--base-url", base_url, "--api-key", "bench", "--envs", ",".join(env_ids), "--tasks", tasks,
        "--num-envs", str(slots), "--out", str(out), "--quiet", "--no-report", *extra,
    ]  # fmt: skip
    shutil.rmtree(out, ignore_errors=True)  # a fresh run folder: every episode played, no stale rows sampled
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_ROOT), environment.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with open(out.parent / f"{out.name}.log", "wb") as log:
        process = subprocess.Popen(command, cwd=_ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
        family_ids = {entry.family: entry.env_id for entry in list_envs() if entry.env_id in env_ids}
        with TreeSampler(process.pid, out / "trajectories.jsonl", sample_s, memory_s, family_ids) as sampler:
            code = process.wait()
        wall = time.perf_counter() - started
    sampler.steps_by_id.update(sampler._new_rows())  # rows written after the last sample
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    episodes = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines() if line.strip()]
    return {
        "slots": slots,
        "code": code,
        "wall": wall,
        "user": after.ru_utime - before.ru_utime,
        "sys": after.ru_stime - before.ru_stime,
        "peak_rss": sampler.peak_rss,
        "peak_pss": sampler.peak_pss,
        "episodes": Counter(row["env_id"] for row in episodes),
        "steps": _steps(episodes),
        "reasons": Counter(row["finish_reason"] for row in episodes),
        "cpu_by_id": sampler.cpu_by_id,
        "startup_cpu": sampler.startup_cpu,
        "sampled_cpu": sampler.sampled_cpu,
        "cpu_by_kind": sampler.cpu_by_kind,
        "sampler_cpu": sampler.own_cpu_s,
        "log": out.parent / f"{out.name}.log",
    }


def _steps(episodes: list[dict[str, Any]]) -> Counter[str]:
    steps: Counter[str] = Counter()
    for row in episodes:
        steps[row["env_id"]] += int(row["steps"])
    return steps


def planned_counts(env_ids: list[str], tasks: str) -> dict[str, int]:
    """Episodes the runner plans per id for ``--tasks``."""
    from agentgym_text.eval.plan import plan_env, resolve_env_ids

    return {entry.env_id: len(plan_env(entry, tasks)) for entry in resolve_env_ids(",".join(env_ids))}


def _print(row: dict[str, Any], planned: dict[str, int], latency_ms: float) -> None:
    played = sum(row["episodes"].values())
    steps = sum(row["steps"].values())
    cpu = row["user"] + row["sys"]
    print(
        f"{row['slots']} slots, {latency_ms:.0f} ms server: wall {row['wall']:.1f} s, CPU {row['user']:.1f} s user + "
        f"{row['sys']:.1f} s system ({1000 * cpu / max(steps, 1):.1f} ms a step; sampled {row['sampled_cpu']:.1f} s), "
        f"peak RSS {row['peak_rss'] / 1024:.2f} GiB, PSS {row['peak_pss'] / 1024:.2f} GiB, episodes "
        f"{played}/{sum(planned.values())}, steps {steps}, exit {row['code']}"
    )
    print(f"  {'env id':<28} {'episodes':>9} {'steps':>6} {'CPU s':>7} {'CPU ms/step':>11}")
    for env_id, count in planned.items():
        steps_here = row["steps"][env_id]
        cpu_here = row["cpu_by_id"][env_id]
        per_step = f"{1000 * cpu_here / steps_here:11.1f}" if steps_here else f"{'-':>11}"
        print(f"  {env_id:<28} {row['episodes'][env_id]:>4}/{count:<4} {steps_here:>6} {cpu_here:>7.1f} {per_step}")
    print(f"  {'before the first step':<28} {'':>9} {'':>6} {row['startup_cpu']:>7.1f}")
    rest = row["sampled_cpu"] - sum(row["cpu_by_id"].values()) - row["startup_cpu"]
    print(f"  {'after the last step':<28} {'':>9} {'':>6} {rest:>7.1f}")
    kinds = ", ".join(f"{kind} {cpu:.1f} s" for kind, cpu in row["cpu_by_kind"].most_common())
    print(f"  CPU by process: {kinds}")
    print(f"  the sampler's own CPU (not the runner's) {row['sampler_cpu']:.1f} s")
    others = {reason: n for reason, n in row["reasons"].items() if reason in ("engine_error", "agent_error")}
    if others or row["code"] != 0:
        print(f"  finish reasons {dict(row['reasons'])}; the runner's output: {row['log']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", default="16,32,64", help="comma-separated --num-envs values, one run each")
    parser.add_argument("--latency-ms", type=float, default=100.0, help="the server's time to answer a request")
    parser.add_argument("--envs", default=None, help="comma-separated ids (default: every AgentBoard id)")
    parser.add_argument("--tasks", default="all", help="the runner's --tasks: all, quick, N, ...")
    parser.add_argument("--sample-s", type=float, default=0.5, help="seconds between samples of the tree's CPU")
    parser.add_argument("--memory-s", type=float, default=5.0, help="seconds between samples of the tree's memory")
    parser.add_argument("--keep", default=None, help="write the run folders here (default: a temporary folder)")
    parser.add_argument("--eval-arg", action="append", default=[], help="one more argument for eval (repeatable)")
    args = parser.parse_args()
    env_ids = args.envs.split(",") if args.envs else suite_ids()
    planned = planned_counts(env_ids, args.tasks)
    print(
        f"{len(env_ids)} ids, {sum(planned.values())} episodes planned (--tasks {args.tasks}); load average "
        f"{os.getloadavg()[0]:.1f} at the start on {os.cpu_count()} cores"
    )
    policy = family_policy(env_ids, args.latency_ms / 1000)
    with ScriptedChatServer(policy) as server, tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep) if args.keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for slots in (int(size) for size in args.slots.split(",")):
            row = run_suite(
                env_ids,
                args.tasks,
                slots,
                server.base_url,
                folder / f"slots-{slots}",
                args.sample_s,
                args.eval_arg,
                args.memory_s,
            )
            _print(row, planned, args.latency_ms)
            print(f"  load average {os.getloadavg()[0]:.1f} at the end", flush=True)


if __name__ == "__main__":
    main()
