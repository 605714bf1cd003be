"""The scripted sessions the AgentBench protocol references are recorded with (``tests/reference/
record_agentbench_protocol.py``) and replayed on (``tests/test_agentbench_protocol_*.py``): replies per item that walk
each task's reply parser, the lateral-thinking puzzles and the scripted host behind the env."""

from __future__ import annotations

from pathlib import Path

ENV_IDS = {
    "dbbench": "AgentBench/DB-v0",
    "os_interaction": "AgentBench/OS-v0",
    "knowledgegraph": "AgentBench/KG-v0",
    "ltp": "AgentBench/LateralThinking-v0",
    "webshop": "AgentBench/WebShop-v0",
    "alfworld": "AgentBench/ALFWorld-v0",
    "mind2web": "AgentBench/WebBrowsing-v0",
}


def _op(sql: str, thought: str = "Let me look.") -> str:
    return f"{thought}\nAction: Operation\n```sql\n{sql}\n```"


DB_SCRIPTS: dict[int, list[str]] = {
    # item 0 (a question): eight statements (a two-line one, a failing one, two blocks, a long result), then an answer
    0: [
        _op("SELECT * FROM `Cities`"),
        _op("SELECT `City`\nFROM `Cities`", "Two lines of SQL."),
        _op("SELECT nope FROM `Cities`", "A wrong column."),
        "Action: Operation\n```sql\nSELECT COUNT(*) FROM `Cities`;\n```\n```sql\nSELECT 1;\n```",
        _op("SELECT `Population` FROM `Cities` ORDER BY `City`"),
        "I think.\nAction: Operation\n```sql\nSELECT MAX(`Population`) FROM `Cities`\n```\nmore words",
        _op("SELECT * FROM `Cities` AS a, `Cities` AS b, `Cities` AS c", "A long result."),
        _op("SELECT `City` FROM `Cities` WHERE `Country` = 'France'"),
        'Done.\nAction: Answer\nFinal Answer: ["3"]',
    ],
    # item 1 (an INSERT): eight statements, then an Operation without a sql block ends it (AGENT_VALIDATION_FAILED)
    1: [
        _op("SELECT * FROM `Cities`"),
        _op("INSERT INTO `Cities` VALUES ('Nice', 'France', '342669')"),
        *[_op(f"SELECT `City` FROM `Cities` LIMIT {i}") for i in range(6)],
        "Action: Operation\nSELECT 1;",
    ],
    # item 2 (an UPDATE): seven statements, then an answer line without 'Action:' (read as an answer)
    2: [
        _op("SELECT * FROM `Cities`"),
        _op("UPDATE `Cities` SET `Population` = '1' WHERE `City` = 'Montréal'"),
        *[_op(f"SELECT {i}") for i in range(5)],
        "All set.\nFinal Answer: done",
    ],
    # item 6: sixteen statements with long results: fifteen run, the history is cut (filter_messages), and the
    # sixteenth reply, still an Operation, ends it at the limit (TASK_LIMIT_REACHED)
    6: [_op(f"SELECT * FROM `Cities` AS a, `Cities` AS b, `Cities` AS c LIMIT {20 + i}") for i in range(16)],
}


def _bash(command: str, thought: str = "Let me look.") -> str:
    return f"Think: {thought}\n\nAct: bash\n\n```bash\n{command}\n```"


OS_SCRIPTS: dict[int, list[str]] = {
    # item 0 (answer match): outputs short, long, empty, two blocks, a reversed Act list, then an answer
    0: [
        _bash("cat /srv/notes.txt"),
        _bash("seq 1 400", "A long output."),
        _bash("true", "No output."),
        "Think: two blocks.\n\nAct: bash\n\n```bash\necho one\n```\n\n```bash\necho two\n```",
        "Think: the answer has no brackets, so the bash before it counts.\n\nAct: bash\n\n```bash\nwc -l "
        "/srv/notes.txt\n```\nAct: answer 3",
        _bash("ls /srv"),
        "Think: lower case.\n\nact: bash\nAct: bash\n\n```bash\nhead -n 1 /srv/notes.txt\n```",
        "Think: it is 3.\n\nAct: answer(3)",
    ],
    # item 1 (a checker): eight commands (one 'Act: bash' without a block), no commit: the round limit
    1: [
        *(
            _bash(command)
            for command in ("ls /var/log/app", "ls -R /var/log/app", "find /var/log/app -name '*.log' | sort")
        ),
        _bash("find /var/log/app -name '*.log' | wc -l"),
        "Think: no block.\n\nAct: bash\npwd",
        *(_bash(command) for command in ("echo $HOME", "ls /var/log/app/old", "seq 1 300 | tr '\\n' ' '")),
    ],
    # item 4 (an operation): seven commands, then finish
    4: [
        *[
            _bash(command)
            for command in (
                "ls /srv",
                "cat /srv/run.sh",
                "stat -c %a /srv/run.sh",
                "id -u",
                "chmod u+x /srv/run.sh",
                "stat -c %A /srv/run.sh",
                "test -x /srv/run.sh && echo ok",
            )
        ],
        "Think: done.\n\nAct: finish",
    ],
    # item 6: a reply with no action ends it (AGENT_INVALID_ACTION)
    6: [_bash("ps -eo comm | grep -c sleep"), "I think there are three."],
}


def _kg(line: str, thought: str = "Next.") -> str:
    return f"Thought: {thought}\nAction: {line}"


KG_SCRIPTS: dict[int, list[str]] = {
    # item 0: calls by name and by variable, a failing call, an intersection, an observation the model wrote itself
    0: [
        _kg("get_relations(Ana Lind)"),
        _kg("get_neighbors(Ana Lind, film.director.film)") + "\nObservation: variable #0, which I made up",
        _kg("get_relations(drama)"),
        _kg("get_neighbors(drama, film.film\\_genre.films\\_in\\_this\\_genre)", "Escaped underscores."),
        _kg("get_neighbors(#0, no.such.relation)", "A relation it does not have."),
        _kg("intersection(#0, #1)"),
        "I will answer soon.",
        _kg("get_relations(#2)"),
        "Thought: done.\nFinal Answer: #2",
    ],
    # item 1: a bad answer id, a syntax error, an unknown function, a count, then the answer
    1: [
        "Final Answer: #4",
        _kg("get_relations(Ana Lind"),
        _kg("lookup(Ana Lind)"),
        _kg("get_relations(Ana Lind)"),
        _kg("lookup(Ana Lind)", "An unknown name after a call."),
        _kg("get_neighbors(Ana Lind, film.director.film)"),
        _kg("count(#0)"),
        "Action:",
        "Find Answer: #1",
    ],
    # item 2: fifteen rounds without an answer (TASK_LIMIT_REACHED), attributes and argmax on the way
    2: [
        _kg("get_relations(Ana Lind)"),
        _kg("get_neighbors(Ana Lind, film.director.film)"),
        _kg("get_attributes(#0)"),
        _kg("argmax(#0, film.film.initial_release_date)"),
        _kg("intersection(#0, #9)", "A variable that does not exist."),
        *[_kg(f"get_relations(#{i % 2})") for i in range(10)],
    ],
}

LTP_PUZZLES = [
    [
        "A woman turns off the light and a man dies far away.",
        "She was a lighthouse keeper; a ship hit the rocks.",
        "1. A woman turns off a light.\n2. A man dies far away.",
        "1. She kept a lighthouse.\n2. A ship crashed.\n3. The man was on the ship.",
    ],
    [
        "A man pushes his car to a hotel and loses his fortune.",
        "He was playing Monopoly.",
        "1. A man pushes his car.\n2. He loses his fortune at a hotel.",
        "1. It is a board game.\n2. The car is a token.",
    ],
    [
        "Two men drink the same poisoned tea; one lives.",
        "The poison was in the ice; one drank fast.",
        "1. Two men drink tea.\n2. One of them dies.",
        "1. The poison was in the ice.\n2. The fast drinker lived.",
    ],
]
LTP_SCRIPTS: dict[int, list[str]] = {
    0: [
        "Was the light a lighthouse?",
        "Was the man on a ship?\nMore lines are ignored by the host.",
        "A woman turns off a light.",
        "Can we play a new game?",
        "  Did the ship hit rocks?  ",
        "Was it night?",
        "Was the woman asleep?",
        "Did the man drown?",
    ],
    1: [
        "Is it a game?",
        "Is the car real?",
        "Was there a bank?",
        "Let us try another new round.",
        "Is the hotel on a board?",
        "Great job, can I have a further question?",
        "Did he roll dice?",
        "Was he bankrupt?",
        "Did he lose money?",
    ],
    2: [
        "Was the tea hot?",
        "Was the poison in the ice?",
        "Was there sugar?",
        "Did one drink fast?",
        "Two men drink tea.",
        "new story please",
        "Was it summer?",
        "other game?",
        "new question",
    ],
}
"""Replies per puzzle: a key-point question, story repeats (the BLEU filter), abort phrases (2 points each; 5 end the
game), multi-line replies; puzzle 2 ends on abort points."""


def host_policy(messages: list[dict[str, str]]) -> str:
    """The scripted host behind the env: an answer from the move's length (with blanks the host's strip removes);
    "no" to every key-point comparison, so no puzzle is solved (AgentBench plays all rounds; the env would stop)."""
    prompt = str(messages[-1]["content"])
    if prompt.startswith(("Restate", "Simplify")):
        return prompt.split("\n", 1)[1]
    if prompt.startswith("Does Sentence 2"):
        return "no"
    move = prompt.split("\n", 1)[0]
    return ("  Yes.  ", "No.", "Irrelevant.\n")[len(move) % 3]


def write_workbook(path: Path) -> Path:
    """The puzzles in AgentBench's workbook layout (story, answer, story keys, answer keys)."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["story", "answer", "Story keys", "Answer keys"])
    for row in LTP_PUZZLES:
        sheet.append(row)
    workbook.save(path)
    return path


def _ws(action: str, thought: str = "Let me see.") -> str:
    return f"Thought:\nI think {thought}\n\nAction:\n{action}"


WEBSHOP_SCRIPTS = {
    0: [  # the ten rounds run out
        _ws("search[long lasting lipstick coral]"),
        _ws("click[Next >]", "the next page may have more."),
        "Thought: back.\naction: click[< Prev]",
        _ws("click[B0HXCVAEXL]", "this one lasts long."),
        "Action:   \n\n  click[Description]",
        _ws("click[< Prev]"),
        _ws("click[no such button]", "a click that names nothing."),
        "First search[ignored] then\nAction: click[Features] and click[Reviews]",
        _ws("click[Back to Search]"),
        _ws("search[coral lipstick]"),
        _ws("click[Buy Now]", "the limit has passed."),
    ],
    1: [  # a reply without a marked action ends it
        _ws("search[farmhouse tv stand grey 75 inch]"),
        _ws("click[Next >]"),
        _ws("click[Next >]"),
        _ws("click[< Prev]"),
        _ws("search[tv stand]"),
        _ws("click[Back to Search]"),
        _ws("search[grey tv stand]"),
        _ws("click[Next >]"),
        "Thought:\nI will click[buy now] without saying so.",
    ],
    2: [  # bought
        _ws("search[hdmi cable gold plated 3 feet]"),
        _ws("click[Next >]"),
        _ws("click[< Prev]"),
        "Action: search[high speed hdmi cable]",
        _ws("click[Next >]"),
        _ws("click[< Prev]"),
        _ws("click[Buy Now]", "there is no item page open yet."),
        _ws("click[Next >]"),
        _ws("click[B01XL4TI3W]", "this braided one is gold plated."),
        _ws("click[Buy Now]"),
    ],
}
"""WebShop: searches, page turns, an item's sub page, clicks naming nothing, lower-case and spaced markers, actions
before the marker, a reply without one, and the ten rounds."""


def _hh(command: str, thought: str = "") -> str:
    return (f"THOUGHT: {thought}\n ACTION: {command}" if thought else f"ACTION: {command}") + "\n"


ALFWORLD_SCRIPTS = {
    0: [  # ends on a reply without ACTION:
        _hh("go to countertop 1", "the bread may lie on a countertop."),
        _hh("go to cuntertop 2"),  # a near miss: the closest listed command by BLEU
        "ACTION: LOOK",
        _hh("inventory"),
        _hh("dance in the kitchen", "a command nothing resembles."),
        _hh("go to cabinet 1"),
        "THOUGHT: open it.\nACTION:   open cabinet 1   \nACTION: close cabinet 1",
        _hh("close cabinet 1"),
        _hh("go to toaster 1"),
        "I think I am done here.",
    ],
    18: [  # three identical replies in a row fail the sample (a heating game)
        _hh("look"),
        _hh("go to drawer 1", "drawers first."),
        _hh("open drawer 1"),
        _hh("go to drawer 2"),
        _hh("go to shelf 1"),
        _hh("examine shelf 1"),
        _hh("inventory"),
        _hh("look"),
        _hh("look"),
        _hh("look"),
    ],
    42: [  # an empty command ends it (a game with two objects)
        _hh("go to fridge 1", "cold things are in the fridge."),
        _hh("open fridge 1"),
        _hh("go to sinkbasin 1"),
        _hh("go to microwave 1"),
        _hh("open microwave 1"),
        _hh("close microwave 1"),
        _hh("go to garbagecan 1"),
        _hh("go to countertop 1"),
        _hh("examine countertop 1"),
        "THOUGHT: nothing to do.\nACTION:   \n",
    ],
}
"""ALFWorld: thoughts, near misses mapped by BLEU, upper case, spaces, two ACTION lines, unknown commands, three
repeats, an empty command and a reply without ACTION:."""


MIND2WEB_SCRIPTS = {
    0: [
        "The search box comes first.\nAnswer: B.\nAction: TYPE\nValue: Nestwell 5 Tier Bookshelf",
        "Answer: C.\nAction: CLICK",
        "B",  # a bare letter: no "Answer:", so A
        "Answer: D.\nAction: SELECT\nValue: Price: Low to High\nValue: a second value line",
        "Answer: B. Action: CLICK",
        "Thinking it over:\nthe cart link.\n\nAnswer: E.\n\nAction: CLICK\n",
        "Action: CLICK",  # no letter
        "Answer: Z. is no choice\nAction: TYPE\nValue: ",
        "  Answer: F.\nAction: click\nValue: lower case is no operation",
    ],
    1: [
        "Answer: B.\nAction: TYPE\nValue: Kenya",
        "C. CLICK",  # Mind2Web's own target format, without "Answer:"
        "Answer: (C)\nAction: CLICK",
        "Answer: A.",
        "Answer: D.\nAction: SELECT\nValue: Newest",
        "Answer: B.\nAnswer: C.\nAction: CLICK\nAction: TYPE",  # the first of each is read
        "Answer: E. is the one",  # a letter without an operation: scored with none, not refused
        "Answer: B.\nAction: TYPE\nValue: decaf\n",
        "Element: the cart\nAnswer: C.\nAction: CLICK",
    ],
    2: [
        "Answer: B.\nAction: TYPE\nValue: lamp   ",
        "Answer: C.\nAction: CLICK",
        "None of the above.",
        "Answer: D.\nAction: SELECT\nValue: Relevance",
        "answer: b.\naction: click",  # lower-case markers are not read
        "Answer: C.\nAction: CLICK",
        "Answer: F.\nAction: TYPE",  # TYPE without a value: scored as it is, not refused
        "Answer: B.\nAction: CLICK\nValue: (nothing to type)",
        "Answer: E.\nAction: CLICK",
    ],
}
"""Mind2Web: "Answer: X." lines with operations and values, bare letters and no letter (read as A), Mind2Web's own
one-line target, letters in brackets, two Value, Answer or Action lines, trailing spaces, lower-case markers and
operations, letters past the choices, and letters without an operation or a value (which the env scores as
AgentBench does under the protocol's ``agentbench_scoring``)."""
