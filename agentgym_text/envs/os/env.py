"""``AgentBench/OS-v0``: a real bash shell in a fresh bubblewrap sandbox per episode."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.info import FinishReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.os.actions import FORMAT_HELP, parse_action
from agentgym_text.envs.os.agentbench_file import load_task_file
from agentgym_text.envs.os.agentbench_judge import example_command, expert_step, judge
from agentgym_text.envs.os.bwrap import BWRAP, Runtime
from agentgym_text.envs.os.expert import bash_action, expert_action
from agentgym_text.envs.os.generator import TaskInstance, output_meets
from agentgym_text.envs.os.render import OUTPUT_CHARS, render_intro, render_output, shown_output
from agentgym_text.envs.os.sandbox import Sandbox, SandboxError, SandboxLimits, SandboxUnavailable, sandbox_problem  # noqa: F401  (the doctest)
from agentgym_text.envs.os.tasks import MAX_STEPS, instance, make_tasks
from agentgym_text.envs.os.userns import ROOTFS

RUNTIMES: dict[str, Runtime] = {"bwrap": BWRAP, "rootfs": ROOTFS}

__all__ = ["OsEnv", "OS_OUTPUT"]

OS_OUTPUT = "os_output"
"""Step info after a command ran: its whole output as the shell printed it, before this env's cut and notes (the
``agentbench`` agent protocol wraps it in AgentBench's words)."""


class OsEnv(TextEnv):
    """Answer questions about, or operate on, a Linux machine through bash (AgentBench's OS interaction).

    Each reset builds a new sandbox from the task's init script and destroys the previous one; ``close()``
    destroys the last. With ``prewarm`` (default) the next episode's sandbox is spawned, empty, in advance.
    Progress: the template's milestones (sticky), checked on what the agent's commands showed and on the
    sandbox's state; the last one is solving the task.

    ``task_file`` plays AgentBench's own items instead (``agentbench_file.py``: a path or glob with ``script_dir``,
    or AgentBench's ``data_config`` file list), judged as AgentBench v0.2 judges them (``agentbench_judge.py``),
    by default on the Debian root filesystem (``sandbox="rootfs"``: users, SUID, a writable ``/usr``; see
    ``userns.py``); progress is success. ``sandbox="bwrap"`` runs them on today's sandbox instead.

    >>> if sandbox_problem() is None:
    ...     env = OsEnv()
    ...     obs, info = env.reset(options={"task_index": 0})
    ...     while not env.episode_over:
    ...         obs, reward, terminated, truncated, info = env.step(env.expert_action())
    ...     env.close()
    ...     result = (info["success"], info["progress_rate"])
    ... else:
    ...     result = (True, 1.0)
    >>> result
    (True, 1.0)
    """

    cheap_admissible_actions = True
    unwrap_actions = False  # AgentBench's format is itself marked and fenced ("Act: bash" + a bash block)

    def __init__(
        self,
        split: str | None = None,
        num_tasks: int | None = None,
        templates: tuple[str, ...] | list[str] | None = None,
        command_timeout: float = 10.0,
        output_chars: int = OUTPUT_CHARS,
        disk_mb: int | None = None,
        max_processes: int = 64,
        memory_mb: int = 512,
        prewarm: bool = True,
        task_file: Any = None,
        script_dir: str | None = None,
        sandbox: str | None = None,
        **kwargs,
    ):
        if task_file is not None:
            options = {"split": split, "num_tasks": num_tasks, "templates": templates}
            chosen = [name for name, value in options.items() if value is not None]
            if chosen:
                raise ValueError(
                    f"{', '.join(chosen)} choose among the generated tasks; with task_file= every item of the file "
                    "is a task"
                )
            tasks = load_task_file(task_file, script_dir, MAX_STEPS)
        elif script_dir is not None:
            raise ValueError("script_dir= goes with task_file= (AgentBench's own items)")
        else:
            tasks = make_tasks(split or "test", num_tasks, tuple(templates) if templates else None)
        self.from_file = task_file is not None
        name = sandbox or ("rootfs" if self.from_file else "bwrap")
        if name not in RUNTIMES:
            raise ValueError(f"sandbox must be one of {', '.join(RUNTIMES)}, not {sandbox!r}")
        self.runtime = RUNTIMES[name]
        problem = self.runtime.problem()
        if problem is not None:
            raise SandboxUnavailable(problem)
        self.runtime.prepare()  # the rootfs is built here, on first use: a failure is one error at make
        super().__init__(tasks, **kwargs)
        disk = disk_mb if disk_mb is not None else (64 if self.from_file else 16)
        self.limits = SandboxLimits(
            command_timeout=command_timeout, disk_mb=disk, max_processes=max_processes, memory_mb=memory_mb
        )
        self.output_chars = output_chars
        self.prewarm = prewarm
        self._sandbox: Sandbox | None = None
        self._spare: Sandbox | None = None
        self._instance: TaskInstance | None = None
        self._item: dict[str, Any] | None = None
        self._example_output: str | None = None
        self._met: list[bool] = []
        self._solved = False
        self._expert_done = 0

    @property
    def instance(self) -> TaskInstance | None:
        """The current task instance (question, init script, answer or checker, solution, milestones)."""
        return self._instance

    @property
    def sandbox(self) -> Sandbox | None:
        return self._sandbox

    # ---- TextEnv -------------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        self._close_sandbox()
        box, self._spare = self._spare, None
        if box is None or not box.alive:
            box = Sandbox(None, self.limits, self.runtime)
        self._solved = False
        self._expert_done = 0
        self._example_output = None
        if self.from_file:
            self._instance, self._item = None, dict(task.params)
            try:
                box.setup_scripts([(language, code) for language, code in self._item["init"]])
                if self._item.get("start"):
                    box.start(self._item["start"])
            except SandboxError:
                box.close()
                raise
            self._met = []
            description = self._item["description"]
        else:
            self._item = None
            self._instance = instance(str(task.params["template"]), int(task.params["seed"]))
            box.setup(self._instance.init)
            self._met = [False] * len(self._instance.milestones)
            description = self._instance.description
        self._sandbox = box
        if self.prewarm:  # the next episode's (still empty) sandbox is set up while this one runs
            self._spare = Sandbox(None, self.limits, self.runtime)
        return Start(observation=render_intro(description), goal=description)

    def _act(self, action: str) -> Outcome:
        parsed = parse_action(action)  # an ActionError is the step's invalid outcome
        task, sandbox = self._instance, self._sandbox
        assert sandbox is not None
        try:
            if parsed.kind == "bash":
                return self._run(parsed.content)
            if self._item is not None:
                given = parsed.content if parsed.kind == "answer" else None
                self._solved, what = judge(
                    self._item, given, lambda language, code, args: sandbox.script(language, code, args)
                )
            elif task is None:
                raise AssertionError("no task")
            elif task.answer is not None:
                given = parsed.content.strip() if parsed.kind == "answer" else None
                self._solved = given == task.answer
                verdict = "correct" if self._solved else "not correct"
                what = (
                    f"The answer {given!r} is {verdict}."
                    if given is not None
                    else ("This task asks a question: 'finish' gives no answer, so it is not solved.")
                )
            else:
                self._solved = sandbox.checks([task.check])[0]
                what = (
                    "The checker confirms the task is done."
                    if self._solved
                    else ("The checker finds the task is not done.")
                )
        except SandboxError as error:
            return Outcome(
                f"The sandbox failed: {error}.", terminated=True, finish_reason=FinishReason.ENGINE_ERROR.value
            )
        self._close_sandbox()
        return Outcome(f"{what} The episode is over.", terminated=True, success=self._solved)

    def _run(self, command: str) -> Outcome:
        task, sandbox = self._instance, self._sandbox
        assert sandbox is not None
        if task is None:
            result = sandbox.run(command)
            sandbox.checks([], after_step=True)
            if self._item is not None and command.strip() == (example_command(self._item) or "").strip():
                self._example_output = result.output
            return Outcome(
                render_output(result, limit=self.output_chars, timeout=self.limits.command_timeout),
                info={OS_OUTPUT: result.output},
            )
        if self._expert_done < len(task.solution) and command == task.solution[self._expert_done]:
            self._expert_done += 1
        result = sandbox.run(command)
        pending = [i for i, m in enumerate(task.milestones) if m.kind == "state" and not self._met[i]]
        bits = sandbox.checks([task.milestones[i].script for i in pending], after_step=True)
        for index, bit in zip(pending, bits):
            self._met[index] = self._met[index] or bit
        seen = shown_output(result, limit=self.output_chars)
        for index, milestone in enumerate(task.milestones):
            if not self._met[index] and milestone.kind != "state":
                self._met[index] = output_meets(milestone, seen)
        return Outcome(
            render_output(result, limit=self.output_chars, timeout=self.limits.command_timeout),
            info={OS_OUTPUT: result.output},
        )

    def _progress(self) -> Progress:
        task = self._instance
        if self._item is not None:  # AgentBench scores its items pass/fail
            return Progress(now=float(self._solved), subgoals=("solve the task",), subgoals_done=(self._solved,))
        if task is None:
            return Progress(now=0.0)
        done = tuple(self._met) + (self._solved,)
        now = 1.0 if self._solved else sum(done) / len(done)
        return Progress(
            now=now, subgoals=tuple(m.name for m in task.milestones) + ("solve the task",), subgoals_done=done
        )

    def _admissible_actions(self) -> list[str]:
        task = self._instance
        if self._item is not None:
            return [bash_action("ls -la"), bash_action("pwd"), "Act: finish"]
        if task is None:
            return []
        actions = [bash_action(command) for command in task.explore]
        return actions + (["Act: finish"] if task.check is not None else [])

    def _help_text(self) -> str:
        examples = "\n\n".join(self._admissible_actions())
        return f"Valid actions: {FORMAT_HELP}\n\nFor example:\n\n{examples}"

    def _expert_action(self) -> str | None:
        if self._item is not None:
            return expert_step(self._item, self._example_output)
        return None if self._instance is None else expert_action(self._instance, self._expert_done)

    # ---- lifetime ----------------------------------------------------------------------------------------
    def _close_sandbox(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None

    def close(self) -> None:
        self._close_sandbox()
        if self._spare is not None:
            self._spare.close()
            self._spare = None
        super().close()
