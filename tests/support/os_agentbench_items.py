"""Small OS problem files written here in AgentBench's format (its layout: data/<g>/*.json, scripts/<g>/...), with
its quirks: a ``create`` that is a list, ``null`` checkers, python checkers read from files, a regex match, a
state checker, a python init script, background processes started by init, a ``start`` line, a dev file that
holds one object."""

from __future__ import annotations

import json
from pathlib import Path

INTEGER_MATCH = "import sys\nsys.exit(0 if int(sys.argv[1]) == int(sys.argv[2]) else 1)\n"
STRING_MATCH = "import sys\nsys.exit(0 if sys.argv[1].strip() == sys.argv[2].strip() else 1)\n"
INTEGER = {"language": "python", "file": "check/integer-match.py"}
STRING = {"language": "python", "file": "check/string-match.py"}

GROUP_1 = [
    {
        "description": "How many lines does /srv/notes.txt have?",
        "create": {"init": "mkdir -p /srv && printf 'a\\nb\\nc\\n' > /srv/notes.txt"},
        "evaluation": {"match": "3"},
        "labels": ["file"],
    },
    {
        "description": "How many .log files are under /var/log/app?",
        "create": {"local": "default", "init": {"file": "init/logs.sh"}},
        "evaluation": {"check": [None, INTEGER], "example": {"code": "find /var/log/app -name '*.log' | wc -l"}},
    },
    {
        "description": "How many directories are in /opt (excluding hidden directories)?",
        "create": [None, INTEGER],
        "evaluation": {"check": [None, INTEGER], "example": "ls -l /opt | grep '^d' | wc -l"},
    },
    {
        "description": "Which user owns the file /srv/owned.txt? Answer with the name only.",
        "create": {"init": ["mkdir -p /srv", "echo x > /srv/owned.txt"]},
        "evaluation": {"match": {"regex": "^(root|0)$", "strip": True}, "example": "stat -c %U /srv/owned.txt"},
    },
    {
        "description": "Make /srv/run.sh executable by its owner.",
        "create": {"init": {"code": "mkdir -p /srv && echo 'echo hi' > /srv/run.sh && chmod 600 /srv/run.sh"}},
        "evaluation": {"check": {"file": "check/executable.sh"}, "example": "chmod u+x /srv/run.sh"},
    },
    {
        "description": "What is the first word in /srv/words.txt?",
        "create": {
            "init": {
                "language": "python",
                "code": "import os\nos.makedirs('/srv', exist_ok=True)\nopen('/srv/words.txt', 'w').write('zebra apple\\n')",
            }
        },
        "evaluation": {
            "check": [None, STRING],
            "example": {"language": "python", "code": "print(open('/srv/words.txt').read().split()[0])"},
        },
    },
    {
        "description": "How many sleep processes are running?",
        "create": {"init": "for i in 1 2 3; do (sleep 300) & done"},
        "evaluation": {"check": [None, INTEGER], "example": "ps -eo comm | grep -c '^sleep$'"},
    },
]

DEV = {
    "description": "What is the value of the shell variable var?",
    "start": "var=3.14",
    "evaluation": {"match": "3.14"},
}

SCRIPTS_1 = {
    "check/integer-match.py": INTEGER_MATCH,
    "check/string-match.py": STRING_MATCH,
    "check/executable.sh": "test -x /srv/run.sh\n",
    "init/logs.sh": "mkdir -p /var/log/app/old && touch /var/log/app/a.log /var/log/app/b.log /var/log/app/old/c.log "
    "/var/log/app/d.txt\n",
}


def write_items(root: Path) -> Path:
    """AgentBench's layout under ``root`` (data/1/sample.json, data/dev.json, scripts/1/, scripts/dev/); ``root``."""
    data = root / "data"
    (data / "1").mkdir(parents=True)
    (data / "1" / "sample.json").write_text(json.dumps(GROUP_1, indent=1))
    (data / "dev.json").write_text(json.dumps(DEV))
    for name, text in SCRIPTS_1.items():
        path = root / "scripts" / "1" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "scripts" / "dev").mkdir(parents=True)
    return root
