"""The keeper: the bash script that runs as PID 1 inside each sandbox.

It is the host's trusted side of the sandbox. The host talks to it over a control pipe (its stdin/stdout), one
line per request, and it answers each request with ``\\x1e<nonce> done <rc>\\x1e``; the nonce is sent as the
first control line, so processes of the agent (which never see it) cannot forge answers. It:

- starts the agent's shell (a plain ``bash`` reading the agent pipe, fd 3 -> stdin, fd 4 -> stdout/stderr) inside
  a loop that restarts it when it exits, printing a restart marker;
- kills every process except itself, that loop and the agent's shell (``reap``), freezing them first so a fork
  bomb cannot outrun it; PID 1 of a PID namespace cannot be killed from inside it;
- runs the task's init script and the checker / milestone scripts in a fresh ``env -i`` bash (the agent's shell
  functions, aliases and PATH cannot fool them), each under a wall-clock limit;
- stamps files modified during a step with a virtual time, so listings never show the wall clock;
- for AgentBench's own items (``configure``): runs scripts with arguments in bash or python and sends back their
  exit code and output (``script``), keeps the processes the init scripts left running (``keep_now``), starts the
  agent's shell where and as AgentBench does, and can leave the agent's background processes alone between steps.
"""

from __future__ import annotations

__all__ = ["KEEPER_SCRIPT", "WRITABLE_DIRS", "CHECK_PATH", "AGENT_PATH", "SCRIPT_OUTPUT_BYTES"]

WRITABLE_DIRS = ("etc", "root", "home", "tmp", "var", "opt", "srv", "mnt")
"""Top-level directories that are writable (each its own size-limited tmpfs); the rest of / is read-only."""

CHECK_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
"""PATH of checker scripts: /usr is read-only and /bin is a symlink on the read-only root, so nothing the agent
writes can shadow a tool a checker uses."""

AGENT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""PATH of AgentBench's scripts (a container's default PATH)."""
SCRIPT_OUTPUT_BYTES = 1 << 20
"""The most output of one script that is sent back (AgentBench's checkers compare a number or a line)."""

_DIRS = " ".join(f"/{name}" for name in WRITABLE_DIRS)

KEEPER_SCRIPT = (
    r"""
exec 2>/dev/null
IFS= read -r nonce || exit 1
IFS= read -r agent_nonce || exit 1
IFS= read -r check_timeout || exit 1
scratch=$(/usr/bin/mktemp /tmp/.keeper.XXXXXX) && exec 7<>"$scratch" && /usr/bin/rm -f "$scratch"
loop=
agent_dir=/root
agent_login=0
stamping=1
reap_steps=1
keepers=" "
configure() {
    agent_dir=$1 agent_login=$2 stamping=$3 reap_steps=$4
}
keep_now() {
    local p stat rest ppid
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [[ $p == 1 || $p == "$loop" ]] && continue
        read -r stat < "/proc/$p/stat" || continue
        rest=${stat##*) }
        rest=${rest#* }
        ppid=${rest%% *}
        [[ $ppid == "$loop" ]] || keepers+="$p "
    done
}
reap() {
    local keep=$1 round p stat rest state ppid found
    for round in 1 2 3 4 5 6 7 8 9 10 11 12; do
        found=
        for p in /proc/[0-9]*; do
            p=${p#/proc/}
            [[ $p == 1 || $p == "$loop" || $keepers == *" $p "* ]] && continue
            read -r stat < "/proc/$p/stat" || continue
            rest=${stat##*) }
            state=${rest%% *}
            rest=${rest#* }
            ppid=${rest%% *}
            [[ $state == Z || $state == X ]] && continue
            [[ $keep == 1 && $ppid == "$loop" ]] && continue
            kill -STOP "$p"
            found+=" $p"
        done
        [[ -z $found ]] && return 0
        kill -KILL $found
    done
    return 1
}
start_agent() {
    if [[ -n $loop ]]; then
        kill -KILL "$loop"
        loop=
        reap 0
    fi
    (
        exec 0<&3 1>&4 2>&4 3<&- 4<&-
        cd "$agent_dir"
        while :; do
            if [[ $agent_login == 1 ]]; then /usr/bin/bash --login; else /usr/bin/bash --noprofile --norc; fi
            printf '\036%s restart\036\n' "$agent_nonce"
        done
    ) &
    loop=$!
}
stamp() {
    [[ $stamping == 1 ]] || return 0
    /usr/bin/find DIRS -xdev -newermt "@$1" -exec /usr/bin/touch -h -d "@$2" {} + 2>/dev/null
    return 0
}
run_check() {
    /usr/bin/timeout -s KILL "$check_timeout" /usr/bin/env -i PATH=CHECKPATH HOME=/root LANG=C.UTF-8 TZ=UTC \
        /usr/bin/bash --noprofile --norc -c "$1" </dev/null >/dev/null 2>&1
}
checks() {
    local bits= script
    for script in "$@"; do
        if run_check "$script"; then bits+=1; else bits+=0; fi
    done
    printf '\036%s bits %s\036\n' "$nonce" "$bits"
}
run_init() {
    (cd /root && eval "$1") </dev/null >/dev/null 2>&1
    local rc=$?
    stamp "$2" "$3"
    return $rc
}
script() {
    local language=$1 code=$2 rc
    shift 2
    local run=(/usr/bin/bash --noprofile --norc -c "$code" --)
    [[ $language == python ]] && run=(/usr/bin/python3 -c "$code")
    (cd / && exec /usr/bin/timeout -s KILL "$check_timeout" /usr/bin/env -i PATH=AGENTPATH HOME=/root \
        LANG=C.UTF-8 TZ=UTC "${run[@]}" "$@") </dev/null >"/proc/$$/fd/7" 2>&1
    rc=$?
    printf '\036%s out %d %s\036\n' "$nonce" "$rc" "$(/usr/bin/head -c OUTBYTES "/proc/$$/fd/7" | /usr/bin/base64 -w0)"
}
after_step() {
    if [[ -n $loop ]] && kill -0 "$loop"; then
        [[ $reap_steps == 1 ]] && reap 1
    else
        start_agent
    fi
    stamp "$1" "$2"
    shift 2
    checks "$@"
}
while IFS= read -r line; do
    eval "$line"
    printf '\036%s done %d\036\n' "$nonce" "$?"
done
""".replace("DIRS", _DIRS)
    .replace("CHECKPATH", CHECK_PATH)
    .replace("AGENTPATH", AGENT_PATH)
    .replace("OUTBYTES", str(SCRIPT_OUTPUT_BYTES))
)
"""The keeper's source (run as ``bash --noprofile --norc -c KEEPER_SCRIPT``)."""
