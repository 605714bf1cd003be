"""A throw-away Linux sandbox per episode, built with bubblewrap (``bwrap``).

What the agent gets: a bash shell as root (uid 0 inside a user namespace; the host's own uid, or ``nobody`` when the
host runs as root), the system's ``/usr`` read-only, a read-only ``/`` whose writable directories (``/etc``,
``/root``, ``/home``, ``/tmp``, ``/var``, ``/opt``, ``/srv``, ``/mnt``) are size-limited tmpfs filled by the
task's init script, no network (only its own loopback), its own PID, IPC and UTS namespaces, no capabilities, no
nested user namespaces, a process limit, a file-size limit and a memory limit. Each command runs under a
wall-clock limit; its output is read up to a byte limit. Processes a command leaves in the background are killed
when it returns. Everything lives in the sandbox's own mount namespace: closing the sandbox (or the host process
dying) kills every process in it and frees its files; nothing is written on the host.

If ``bwrap`` is missing or cannot create namespaces, ``Sandbox`` raises ``SandboxUnavailable``: commands are never
run on the host instead.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import select
import signal
import subprocess
import time
import weakref
from dataclasses import dataclass

from agentgym_text.envs.os.bwrap import (
    BWRAP,
    VIRTUAL_EPOCH,
    Runtime,
    SandboxLimits,
    SandboxUnavailable,
    high_pipe,
    limit_prefix,
    sandbox_problem,
)
from agentgym_text.envs.os.keeper import KEEPER_SCRIPT
from agentgym_text.envs.os.shell import clean_output, shell_quote

__all__ = [
    "Sandbox",
    "SandboxLimits",
    "CommandResult",
    "SandboxUnavailable",
    "SandboxError",
    "Runtime",
    "sandbox_problem",
    "shell_quote",
    "VIRTUAL_EPOCH",
]


class SandboxError(RuntimeError):
    """The sandbox stopped answering (its keeper died); the episode cannot go on."""


@dataclass(frozen=True)
class CommandResult:
    output: str
    exit_code: int | None
    timed_out: bool = False
    output_limited: bool = False
    restarted: bool = False
    cwd: str = "/root"


def _kill_process(process: subprocess.Popen, fds: list[int]) -> None:
    """Finalizer: SIGKILL bwrap (its PID-1 child dies with it, and with PID 1 every process in the sandbox)."""
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
    if process.poll() is None:
        try:
            process.send_signal(signal.SIGKILL)
        except OSError:
            pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


class Sandbox:
    """One running sandbox. ``run`` executes agent commands; ``checks`` runs trusted scripts; ``close`` ends it.

    >>> if sandbox_problem() is None:
    ...     with Sandbox("mkdir -p /srv/demo && echo hello > /srv/demo/a.txt") as box:
    ...         print(box.run("cat /srv/demo/a.txt; cd /srv/demo").output.strip(), box.run("pwd").output.strip())
    ... else:
    ...     print("hello /srv/demo")
    hello /srv/demo
    """

    def __init__(
        self, init_script: str | None = "", limits: SandboxLimits | None = None, runtime: Runtime | None = None
    ):
        """Start bwrap and the keeper; with an ``init_script`` (None: later, via ``setup``) build the files too.

        Starting without one lets a caller spawn the next episode's sandbox ahead of time: bwrap's own set-up
        (most of the start-up time) then overlaps with the current episode.
        """
        self.runtime = runtime or BWRAP
        problem = self.runtime.problem()
        if problem is not None:
            raise SandboxUnavailable(problem)
        self.limits = limits or SandboxLimits()
        self._nonce = secrets.token_hex(16)
        self._agent_nonce = secrets.token_hex(16)
        self._seq = 0
        self._step = 0
        self._cwd = "/root"
        self._pending_cd = False
        self._ready = False
        self._command_started = int(time.time()) - 1
        command = self.runtime.command(self.limits)  # may build the runtime's root (an error names the cause)
        extra = dict(self.runtime.popen_kwargs())
        agent_in_r, agent_in_w = high_pipe()
        agent_out_r, agent_out_w = high_pipe()
        keeper = (
            f"exec 3<&{agent_in_r} 4>&{agent_out_w} {agent_in_r}<&- {agent_out_w}>&-\n"
            + limit_prefix(self.limits)
            + KEEPER_SCRIPT
        )
        passed = (agent_in_r, agent_out_w, *extra.pop("pass_fds", ()))
        self._process = subprocess.Popen(
            command + ["/usr/bin/bash", "--noprofile", "--norc", "-c", keeper],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=passed,
            **extra,
        )
        os.close(agent_in_r)
        os.close(agent_out_w)
        self._agent_in = agent_in_w
        self._agent_out = agent_out_r
        self._finalizer = weakref.finalize(self, _kill_process, self._process, [agent_in_w, agent_out_r])
        self._control_buffer = b""
        self._send_control_raw(f"{self._nonce}\n{self._agent_nonce}\n{self.limits.check_timeout:g}\n")
        if init_script is not None:
            self.setup(init_script)

    def setup(self, init_script: str) -> None:
        """Run the task's init script (in a subshell of the keeper), stamp its files, start the agent's shell."""
        if self._ready:
            raise RuntimeError("this sandbox is already set up")
        now = int(time.time()) - 1
        init_rc = self.control(f"run_init {shell_quote(init_script)} {now} {VIRTUAL_EPOCH}", timeout=30)
        if init_rc != 0:
            self.close()
            raise SandboxError(f"the task's init script failed with exit code {init_rc}")
        self.control("start_agent")
        self._ready = True

    def setup_scripts(
        self, scripts: list[tuple[str, str]], *, agent_dir: str = "/", login: bool = True, reap_steps: bool = False
    ) -> None:
        """AgentBench's way: the agent's shell (``bash --login`` in ``agent_dir``) first, then each init script in
        its own process (all must exit 0), the processes they leave running kept alive; no mtime stamping."""
        if self._ready:
            raise RuntimeError("this sandbox is already set up")
        self.control(f"configure {shell_quote(agent_dir)} {int(login)} 0 {int(reap_steps)}")
        self.control("start_agent")  # before the init scripts, as AgentBench opens its shell when the container starts
        self.start(":")  # the login shell has read its profile before any init script runs
        for number, (language, code) in enumerate(scripts):
            rc, output = self.script(language, code, timeout=self.limits.init_timeout)
            if rc != 0:
                self.close()
                detail = output.strip()[-600:]
                raise SandboxError(
                    f"init script {number} ({language}) failed with exit code {rc}" + (f": {detail}" if detail else "")
                )
        self.control("keep_now")
        self._cwd = agent_dir
        self._ready = True

    def script(
        self, language: str, code: str, args: tuple[str, ...] = (), timeout: float | None = None
    ) -> tuple[int, str]:
        """Run a trusted ``bash`` or ``python`` script (``bash -c CODE -- ARGS`` / ``python3 -c CODE ARGS``) in a
        fresh process in ``/``; its exit code and its output (stdout and stderr, as ``docker exec`` gives them).
        """
        if language not in ("bash", "python"):
            raise ValueError(f"scripts are bash or python, not {language!r}")
        words = " ".join(shell_quote(word) for word in (language, code, *args))
        limit = timeout if timeout is not None else self.limits.check_timeout
        line = f"check_timeout={limit:g}; script {words}; check_timeout={self.limits.check_timeout:g}"
        self._send_control_raw(line + "\n")
        out = re.compile(b"\x1e" + self._nonce.encode() + rb" out (-?\d+) ([A-Za-z0-9+/=]*)\x1e\n")
        match = self._read_control(out, 15.0 + limit)
        done = re.compile(b"\x1e" + self._nonce.encode() + rb" done (-?\d+)\x1e\n")
        self._read_control(done, 15.0)
        return int(match.group(1)), base64.b64decode(match.group(2)).decode("utf-8", "replace")

    def start(self, command: str) -> None:
        """Send AgentBench's ``start`` line to the agent's shell, its output unseen. Unlike ``run``, the line's
        stdin stays the agent's input, so ``su - jack`` leaves jack's shell reading the agent's next commands."""
        self._seq += 1
        seq = self._seq
        line = (
            f'__c={shell_quote(command)}; eval "$__c"; unset __c\n'
            f"printf '\\n\\036%s %d %d %s\\036\\n' {self._agent_nonce} {seq} 0 \"$PWD\"\n"
        )
        try:
            os.write(self._agent_in, line.encode("utf-8", "surrogatepass"))
        except OSError as error:
            raise SandboxError(self._death_note()) from error
        _, match, _, _ = self._read_agent(seq, self.limits.command_timeout)
        if match is None:
            raise SandboxError("the item's start line did not return")
        self._cwd = match.group(3).decode("utf-8", "replace") or self._cwd

    # ---- control channel (trusted) ------------------------------------------------------------------
    def _send_control_raw(self, text: str) -> None:
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(text.encode("utf-8"))
            self._process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise SandboxError(self._death_note()) from error

    def _death_note(self) -> str:
        detail = ""
        if self._process.poll() is not None and self._process.stderr is not None:
            try:
                detail = self._process.stderr.read(4000).decode("utf-8", "replace").strip()
            except OSError:
                pass
        return "the sandbox stopped answering" + (f": {detail}" if detail else "")

    def _read_control(self, pattern: re.Pattern, timeout: float) -> re.Match:
        assert self._process.stdout is not None
        fd = self._process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            match = pattern.search(self._control_buffer)
            if match:
                self._control_buffer = self._control_buffer[match.end() :]
                return match
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise SandboxError("the sandbox's keeper did not answer in time")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise SandboxError(self._death_note())
            self._control_buffer += chunk

    def control(self, line: str, timeout: float = 15.0) -> int:
        """Send one keeper request; its exit code."""
        self._send_control_raw(line + "\n")
        done = re.compile(b"\x1e" + self._nonce.encode() + rb" done (-?\d+)\x1e\n")
        return int(self._read_control(done, timeout).group(1))

    def checks(self, scripts: list[str], *, after_step: bool = False) -> list[bool]:
        """Run trusted scripts (fresh env, absolute PATH); True where one exits 0.

        With ``after_step``, first kill what the last command left running and stamp the files it changed.
        """
        quoted = " ".join(shell_quote(script) for script in scripts)
        if after_step:
            self._step += 1
            line = f"after_step {self._command_started} {VIRTUAL_EPOCH + 60 * self._step} {quoted}"
        else:
            line = f"checks {quoted}"
        self._send_control_raw(line + "\n")
        bits = re.compile(b"\x1e" + self._nonce.encode() + rb" bits ([01]*)\x1e\n")
        budget = 15.0 + self.limits.check_timeout * max(1, len(scripts))
        found = self._read_control(bits, budget).group(1).decode()
        done = re.compile(b"\x1e" + self._nonce.encode() + rb" done (-?\d+)\x1e\n")
        self._read_control(done, 15.0)
        if after_step:
            self._drain_agent()
        return [bit == "1" for bit in found]

    # ---- the agent's shell ----------------------------------------------------------------------------
    def run(self, command: str) -> CommandResult:
        """Run ``command`` in the agent's persistent shell (stdin is /dev/null; stderr merged into stdout)."""
        self._seq += 1
        seq = self._seq
        self._command_started = int(time.time()) - 1  # files changed from here on get the step's virtual time
        prefix = f"cd -- {shell_quote(self._cwd)} 2>/dev/null; " if self._pending_cd else ""
        self._pending_cd = False
        line = (
            f'__c={shell_quote(prefix + command)}; eval "$__c" </dev/null; __r=$?; unset __c; '
            f'printf \'\\n\\036%s %d %d %s\\036\\n\' {self._agent_nonce} {seq} "$__r" "$PWD"; unset __r\n'
        )
        try:
            os.write(self._agent_in, line.encode("utf-8", "surrogatepass"))
        except OSError as error:
            raise SandboxError(self._death_note()) from error
        raw, match, restarted, limited = self._read_agent(seq, self.limits.command_timeout)
        timed_out = False
        if match is None:
            if not restarted:
                timed_out = not limited
                self.control("reap 1")
                more, match, again, _ = self._read_agent(seq, 0.5, raw, drain=True)
                raw, restarted = more, restarted or again
            if match is None:
                if not restarted:
                    self.control("start_agent")
                restarted = True
                probe = f"printf '\\n\\036%s %d 137 %s\\036\\n' {self._agent_nonce} {seq} \"$PWD\"\n"
                os.write(self._agent_in, probe.encode())
                more, match, _, _ = self._read_agent(seq, 5.0, raw, drain=True)
                raw = more
                if match is None:
                    raise SandboxError("the agent's shell could not be restarted")
        exit_code = int(match.group(2))
        if restarted:
            self._pending_cd = True
        else:
            self._cwd = match.group(3).decode("utf-8", "replace") or self._cwd
        if timed_out or limited:
            exit_code = None
        text = clean_output(raw[: self.limits.output_bytes], self._agent_nonce)
        return CommandResult(text, exit_code, timed_out, limited, restarted, self._cwd)

    def _read_agent(
        self, seq: int, timeout: float, raw: bytes = b"", drain: bool = False
    ) -> tuple[bytes, re.Match | None, bool, bool]:
        """Read agent output until the sentinel of ``seq``; (output, sentinel or None, restarted, limited).

        Without ``drain`` reading stops once the output passes the byte limit; with it, reading goes on (keeping
        the first ``output_bytes`` and a tail where the sentinel will appear) while the keeper stops the command.
        """
        sentinel = re.compile(rb"\n?\x1e" + self._agent_nonce.encode() + rb" (\d+) (-?\d+) ([^\x1e]*)\x1e\n")
        restart = b"\x1e" + self._agent_nonce.encode() + b" restart\x1e\n"
        limit = self.limits.output_bytes
        deadline = time.monotonic() + timeout
        restarted = False
        while True:
            if restart in raw:
                restarted = True
                raw = raw.replace(restart, b"")
            for match in sentinel.finditer(raw):
                if int(match.group(1)) == seq:
                    body = sentinel.sub(b"", raw[: match.start()])
                    return body, match, restarted, False
            if restarted:  # the shell exited (`exit`, `set -e`): the rest of its input line is gone
                return sentinel.sub(b"", raw), None, True, False
            if len(raw) > limit:
                if not drain:
                    return raw, None, restarted, True
                if len(raw) > limit + (1 << 17):
                    raw = raw[:limit] + raw[-(1 << 16) :]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._agent_out], [], [], left)[0]:
                return sentinel.sub(b"", raw), None, restarted, False
            chunk = os.read(self._agent_out, 65536)
            if not chunk:
                raise SandboxError(self._death_note())
            raw += chunk

    def _drain_agent(self) -> None:
        """Drop what killed background processes wrote after their command returned."""
        while select.select([self._agent_out], [], [], 0)[0]:
            if not os.read(self._agent_out, 65536):
                break

    # ---- lifetime ------------------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._finalizer.alive and self._process.poll() is None

    @property
    def pid(self) -> int:
        """The host PID of the bwrap process."""
        return self._process.pid

    def close(self) -> None:
        """Kill every process of the sandbox (its files vanish with its mount namespace)."""
        self._finalizer()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
