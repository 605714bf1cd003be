"""A stand-in for a checkout of THUDM/AgentBench at v0.2: the task modules the ``agentbench`` protocol reads, in v0.2's
layout and shapes (the same constant, class and method names, the texts in the same places), worded here.

``write_checkout(root)`` writes them; the protocol reads them exactly as it reads a real checkout. The recorder
(``tests/reference/record_agentbench_protocol.py``) puts these texts into v0.2's own code in the same places.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = [
    "write_checkout",
    "DB",
    "OS",
    "KG",
    "LTP",
    "WEBSHOP",
    "ALFWORLD",
    "ALFWORLD_CONFIG",
    "ALFWORLD_PROMPTS",
    "MIND2WEB_TASK",
    "MIND2WEB_LOADER",
    "MIND2WEB_CONFIG",
    "MIND2WEB_PROMPT",
    "CARD_GAME_PROMPTS",
    "CARD_GAME_CLIENT",
]

DB = '''import re
from src.server.task import Task, Session
from .Interaction import Container

big_prompt = """
Here is a question about one table. Work on it with SQL, thinking aloud first.
Run a statement like this:
Action: Operation
```sql
SELECT * FROM t;
```
One statement per reply, on one line. When sure, reply:
Action: Answer
Final Answer: ["A", "B"]
"""


class DBBench(Task):
    async def start_sample(self, index, session: Session):
        entry = self.dataset[index][0]
        session.inject({"role": "user", "content": big_prompt})
        session.inject({"role": "agent", "content": "Understood."})
        prompt = entry["description"] + "\\n" + entry["add_description"]
        session.inject({"role": "user", "content": prompt})
'''

OS = '''import re
from src.server.task import Task, Session

ONE_SHOT = [
    {"role": "user", "content": "how many lines does /etc/hosts have?"},
    {"role": "agent", "content": "Think: count them.\\n\\nAct: bash\\n\\n```bash\\nwc -l < /etc/hosts\\n```"},
    {"role": "user", "content": "The shell says:\\n7"},
    {"role": "agent", "content": "Think: that is it.\\n\\nAct: answer(7)"},
]


class OSInteraction(Task):
    async def _judge(self, session, config, container):
        oneshot = True
        session.inject(
            {
                "role": "user",
                "content": """You work a Linux shell for me. Each turn: think, then one of "bash", "finish", "answer".

Think: ...

Act: bash

```bash
# code
```

Act: finish

Act: answer(the answer)\\n\\n""",
            }
        )
        if not oneshot:
            session.history[-1].content += "My task:\\n\\n" + config.description
        else:
            session.history[-1].content += "My task:\\n\\n" + ONE_SHOT[0]["content"]
            for item in ONE_SHOT[1:]:
                session.inject(item)
            session.inject(
                {"role": "user", "content": "A fresh machine, a new task:\\n\\n" + config.description}
            )
        for _ in range(self.round_limit):
            root = await session.action()
            result = ""
            if len(result) > 800:
                result = result[:780] + "\\n[cut: too long]"
            session.inject(
                {
                    "role": "user",
                    "content": ("The shell says:\\n\\n" + result) if result else "The shell printed nothing.",
                }
            )
'''

KG = '''import re
from src.server.task import Task, Session
from .api import *

INSTRUCTIONS = """
Answer the question from a knowledge base with these tools: get_relations(x), get_neighbors(x, r),
intersection(a, b), get_attributes(x), argmax(x, a), argmin(x, a), count(x). Results are variables #0, #1, ...
Reply with one 'Action: tool(args)' line at a time, and 'Final Answer: #k' at the end.
"""

ONE_SHOT = [
    """Question: which rivers cross Ruritania? \\nEntities: [Ruritania]""",
    """Thought: look at its relations.\\nAction: get_relations(Ruritania)""",
    """Observation: [geo.country.rivers]""",
    """Thought: follow the river relation.\\nAction: get_neighbors(Ruritania, geo.country.rivers)""",
    """Observation: variable #0, which are instances of geo.river""",
    """Thought: #0 it is.\\nFinal Answer: #0""",
]


class KnowledgeGraph(Task):
    async def start_sample(self, index, session: Session):
        session.inject({"role": "user", "content": INSTRUCTIONS})
        session.inject({"role": "agent", "content": "Ready when you are."})
        for idx, shot in enumerate(ONE_SHOT):
            if idx % 2 == 0:
                session.inject({"role": "user", "content": shot})
            else:
                session.inject({"role": "agent", "content": shot})
        session.inject(
            {
                "role": "user",
                "content": "Next question: " + question + "\\nKnown entities: " + f"[{'; '.join([e for e in entities])}]",
            }
        )
        for i in range(self.round):
            message = await session.action()
            final_answer = re.findall(r"(?:Find|Final) Answer: #(\\d+)", message)
            if final_answer:
                try:
                    answer_variable = variables_list[int(final_answer[0])]
                except IndexError:
                    session.inject({"role": "user", "content": "No such variable: check the id."})
                    continue
                break
            else:
                for line in message.split("\\n"):
                    execution_message = "Nothing ran."
                    if re.match(r"Action.*?:", line):
                        for function_name in re.findall(r"(\\w+)\\(", line):
                            try:
                                pass
                            except Exception as e:
                                try:
                                    if function_name != "intersection":
                                        execution_message = f"{function_name}({', '.join(ori_arguments)}) failed; fix the call."
                                    else:
                                        execution_message = f"{function_name}({', '.join(ori_arguments)}) failed: the variables differ in type."
                                except UnboundLocalError:
                                    execution_message = f"Could not read the call to {function_name}; check the brackets."
                                continue
                        break
                if not find_action:
                    session.inject({"role": "user", "content": "No Action line found: try again."})
'''

LTP = r"""from src.server.task import Task, Session


class Prompter:
    def solver_instruction(self, story):
        raise NotImplementedError


class ENPrompter(Prompter):
    def rules_solver(self):
        return "Ask yes/no questions, one at a time, to find the hidden truth."

    def rules(self):
        return "Answer yes, no or irrelevant, by the truth."

    def solver_instruction(self, story):
        return f"Let us play a lateral thinking puzzle.\n{self.rules_solver()}\nThe story:\n{story}\n\nAsk away."

    def hosting_instruction(self, story, answer, story_key, answer_key):
        return [
            {"role": "user", "content": f"Host this puzzle. Story: {story}\nTruth: {answer}\n{self.rules()}"},
            {"role": "assistant", "content": "I will host."},
            {"role": "user", "content": "The story's key points?"},
            {"role": "assistant", "content": story_key},
            {"role": "user", "content": "The truth's key points?"},
            {"role": "assistant", "content": answer_key},
            {"role": "user", "content": "The rules?"},
            {"role": "assistant", "content": self.rules()},
            {"role": "user", "content": "Begin."},
            {"role": "assistant", "content": f"The story:\n{story}"},
        ]

    def check_solver_valid(self, solver):
        return not (
            "new story" in solver
            or "other story" in solver
            or "new game" in solver
            or "other game" in solver
            or "new question" in solver
            or "other question" in solver
            or "other round" in solver
            or "new round" in solver
            or "Great job" in solver
            or "further question" in solver
        )

    def solver_hint_invalid(self):
        return "Stay with this story and ask a yes/no question."

    def solver_hint_appeared_in_story(self):
        return "The story says so already: ask something new."

    def solver_hint_asked_before(self):
        return "Asked already: ask something new."

    def hosting_append_messages(self, known, solver):
        if len(known) > 0:
            return [
                {"role": "user", "content": f"{' '.join(known)}\nyes, no or irrelevant?"},
                {"role": "assistant", "content": "Yes."},
                {"role": "user", "content": f"{solver}\nyes, no or irrelevant?"},
            ]
        return [{"role": "user", "content": f"{solver}\nyes, no or irrelevant?"}]

    def hosting_summary(self, solver):
        return f"As one statement:\n{solver}"

    def hosting_summary_opposite(self, solver):
        return f"As one statement, negated:\n{solver}"

    def hosting_simplify(self, reasoning):
        return f"In one sentence:\n{' '.join(reasoning)}"

    def hosting_compare(self, key1, merge):
        return f"Does B hold all of A? yes or no.\nA: {key1}\nB: {merge}"

    def check_yes(self, message):
        return message.strip().startswith(("Yes", "yes"))

    def check_no(self, message):
        return message.strip().startswith(("No", "no"))


class LateralThinkingPuzzle(Task):
    pass
"""

WEBSHOP = """import re
from src.server.task import Task, Session
from .web_agent_site.envs.web_agent_text_env import WebAgentTextEnv

prompt: str = \'\'\'
You are shopping in a web store for the item described in the instruction.
Each round shows the page and what you can do on it. Answer with one action:
search[keywords] when there is a search bar, or click[value] with a value listed.
Reply like this:

Thought:
...

Action:
click[value]
\'\'\'


class WebShop(Task):
    async def start_sample(self, index, session: Session):
        session.inject({"role": "user", "content": prompt})
        session.inject({"role": "agent", "content": "Sure."})
        session.inject({"role": "user", "content": "Page:\\nShop [SEP] Instruction: [SEP] a red mug [SEP] Search"})
        session.inject({"role": "agent", "content": "Thought:\\nSearch first.\\n\\nAction:\\nsearch[red mug]"})
        session.inject({"role": "user", "content": "Page:\\nInstruction: [SEP] a red mug [SEP] B01 [SEP] Red Mug"})
        session.inject({"role": "agent", "content": "Thought:\\nThat one.\\n\\nAction:\\nclick[B01]"})
        session.inject({"role": "user", "content": "Page:\\nInstruction: [SEP] a red mug [SEP] color [SEP] red"})
        session.inject({"role": "agent", "content": "Thought:\\nPick red.\\n\\nAction:\\nclick[red]"})
        session.inject({"role": "user", "content": "Page:\\nInstruction: [SEP] a red mug [SEP] Buy Now"})
        session.inject({"role": "agent", "content": "Thought:\\nDone.\\n\\nAction:\\nclick[Buy Now]"})
        for j in range(10):
            session.inject(
                {
                    "role": "user",
                    "content": f"Page:\\n{observation}\\n\\nYou may do:\\n{available_actions}",
                }
            )
"""

ALFWORLD = """import os
from src.server.task import Task, Session
from src.server.tasks.alfworld.environment import SingleAlfredTWEnv
from src.server.tasks.alfworld.utils import *


class ALFWorld(Task):
    def __init__(self, **kwargs):
        self.prefixes = {
            "pick_and_place": "place",
            "pick_clean_then_place": "wash",
            "pick_heat_then_place": "warm",
            "pick_cool_then_place": "chill",
            "look_at_obj": "look",
            "pick_two_obj": "two",
        }

    @staticmethod
    def get_task_instruction():
        return "You act in a house to finish a household task. Each turn you get what you see and the commands you may give. Think if you like, then answer with one line: ACTION: <one listed command>.\\n\\n"

    async def alfworld_run(self, session: Session, env):
        ob, info = env.reset()
        session.inject({"role": "user", "content": self.get_task_instruction()})
        session.inject({"role": "agent", "content": "Understood, I will act one listed command at a time."})
        history = self.get_prompt(name)
        history[0] = "For instance:\\n" + history[0]
        self.inject_info(session, history)
        init_prompt = "Now your own game. " + ob + self.get_available_actions(info.get("admissible_commands", [[]])[0])
        session.inject({"role": "user", "content": init_prompt})
"""

ALFWORLD_CONFIG = """default:
  parameters:
    name: alfworld-std
    prompts_path: "src/server/tasks/alfworld/prompts/examples.json"
    split: "standard"
    max_step: 35
"""


def _example(task: str, steps: list[tuple[str, str]]) -> list[str]:
    turns = [f"You stand in a small kitchen with a table 1 and a shelf 1.\nYour task is to: {task}."]
    for action, seen in steps:
        turns += [f"THOUGHT: one step closer.\n ACTION: {action}", seen]
    return turns[:-1]


ALFWORLD_PROMPTS = {
    "place": _example(
        "put a cup on table",
        [
            ("go to shelf 1", "On the shelf 1, you see a cup 1."),
            ("take cup 1 from shelf 1", "You pick up the cup 1."),
            ("go to table 1", "Done."),
        ],
    ),
    "wash": _example(
        "put a clean plate on table",
        [("go to shelf 1", "On the shelf 1, you see a plate 1."), ("take plate 1 from shelf 1", "Done.")],
    ),
    "warm": _example(
        "put a hot egg on table",
        [("go to shelf 1", "On the shelf 1, you see an egg 1."), ("take egg 1 from shelf 1", "Done.")],
    ),
    "chill": _example(
        "put a cool apple on table",
        [("go to shelf 1", "On the shelf 1, you see an apple 1."), ("take apple 1 from shelf 1", "Done.")],
    ),
    "look": _example(
        "look at a book under the lamp",
        [("go to shelf 1", "On the shelf 1, you see a book 1."), ("take book 1 from shelf 1", "Done.")],
    ),
    "two": _example(
        "put two pens on table",
        [("go to shelf 1", "On the shelf 1, you see a pen 1 and a pen 2."), ("take pen 1 from shelf 1", "Done.")],
    ),
}

MIND2WEB_TASK = """import re
from src.server.task import Task, Session
from .dataloader import format_input_multichoice


class Mind2Web(Task):
    async def start_sample(self, index, session: Session):
        sample = self.data[index][0]
        while len(all_candidates) > 1:
            seq_context, seq_in, _, choices = format_input_multichoice(sample, candidate_ids, -1, keep_html_brackets=True)
            self.prompt_template[-1]["content"] = f"Page:\\n{seq_context}\\n--\\n{seq_in}"
            session.history = []
"""

MIND2WEB_LOADER = """def format_input_multichoice(sample, candidate_ids, gt=-1, previous_k=5, keep_html_brackets=False):
    choices = []
    seq_input = (
        "Complete this web task on the page shown:\\n"
        f"Goal: {sample['confirmed_task']}\\n"
        f"Done so far:\\n"
    )
    if len(sample["previous_actions"]) > 0:
        for action in sample["previous_actions"][-previous_k:]:
            seq_input += f"- {action}\\n"
    else:
        seq_input += "(nothing)\\n"
    seq_input += "Which element next? Choose a letter:\\nA. none of these\\n"
    for idx, choice in enumerate(choices):
        seq_input += f"{chr(66 + idx)}) {choice[1]}\\n"
    return seq_input
"""

MIND2WEB_CONFIG = """default:
  parameters:
    llm_prompt: data/mind2web/prompt/examples.json
"""

MIND2WEB_PROMPT = [
    {
        "role": "user",
        "content": "You pick the element to act on from lettered choices. Answer with 'Answer: X', then 'Action: CLICK', 'TYPE' or 'SELECT', and 'Value: ...' when typing or selecting.",
    },
    {"role": "agent", "content": "Fine."},
    {
        "role": "user",
        "content": "Page:\n<button id=1> Go </button>\n--\nGoal: start\nWhich element next? Choose a letter:\nA. none of these\nB) <button id=1> Go </button>\n",
    },
    {"role": "agent", "content": "The Go button starts it.\nAnswer: B.\nAction: CLICK"},
    {
        "role": "user",
        "content": "Page:\n<input id=2 />\n--\nGoal: type cats\nWhich element next? Choose a letter:\nA. none of these\nB) <input id=2 />\n",
    },
    {"role": "agent", "content": "Type into the box.\nAnswer: B.\nAction: TYPE\nValue: cats"},
    {"role": "user", "content": ""},
]

CARD_GAME_PROMPTS = r"""import json

fish_description = {
    "spray": {
        "passive": r"Counter: hits back for 30 when a teammate falls under 30% health. ",
        "active": r"AOE: strikes every enemy for 35% of its attack.",
    },
    "flame": {
        "passive": r"Counter: hits back for 30 when a teammate falls under 30% health. ",
        "active": r"Infight: hurts a live teammate for 75 and gains 140 attack (never itself). ",
    },
    "eel": {
        "passive": r"Deflect: passes 70% of a hit to teammates, keeps 30%; +40 attack per 200 damage taken. ",
        "active": r"AOE: strikes every enemy for 35% of its attack.",
    },
    "sunfish": {
        "passive": r"Deflect: passes 70% of a hit to teammates, keeps 30%; +40 attack per 200 damage taken. ",
        "active": r"Infight: hurts a live teammate for 75 and gains 140 attack (never itself). ",
    },
}

target_friend = ["flame", "eel", "mobula", "octopus"]

action_format = {
    "pick_fish": "the name of one of your live fish",
    "action": "normal or active",
    "target_position": "a position from 0 to 3",
}

guess_format = {
    "guess_type": "the fish type you think it is",
    "target_position": "the enemy position from 0 to 3",
}

ACTION_PROMPT = '''Two teams of four fish fight. Each fish has 400 health, 200 attack, an active and a passive skill.
Each round pick one live fish: its active skill, or a normal attack for half its attack on one enemy.
Passives fire by themselves.
%s
Most fish alive at the end wins.

Your fish:
%s

The enemy\'s fish:
%s

Think aloud, then give your move as JSON:
%s

Always give a move.'''

GUESS_RULE = '''The enemy may guess one of your hidden fish each round; a right guess reveals it and costs each of your fish 50 health.'''

GUESS_PROMPT = '''Two teams of four fish fight. Each fish has health, attack, an active and a passive skill.
Every fish starts hidden. Each round guess one live enemy fish: a right guess reveals it and costs each enemy fish 50 health.
Most fish alive at the end wins.

Your fish:
%s

The enemy\'s fish:
%s

Think aloud, then give your guess as JSON:
%s

Always give a guess.'''

your_fish = ["spray", "flame", "eel", "sunfish"]

enemy_fish = ["spray", "flame", "eel", "sunfish"]


def get_fish_description(fish):
    return {name: fish_description[name] for name in fish}


your_fish_description = get_fish_description(your_fish)
enemy_fish_description = get_fish_description(enemy_fish)

ACTION_DESCRIPTION = {
    1: ACTION_PROMPT % ("", your_fish_description, enemy_fish_description, action_format),
    2: ACTION_PROMPT % (GUESS_RULE, your_fish_description, enemy_fish_description, action_format),
}

GUESS_DESCRIPTION = {
    2: GUESS_PROMPT % (your_fish_description, enemy_fish_description, guess_format),
}

action_prompt = '''
The board now:
%s
Your last move:
%s
The enemy\'s last move:
%s
Your move?
'''

guess_prompt = '''
Your last guess was right: %s
Hidden live enemy positions: %s
The enemy\'s last move: %s
Passives the enemy showed: %s
Your guess?
'''
"""

CARD_GAME_CLIENT = """import json
import socket


class Client:
    def __init__(self, port, host="localhost"):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.connect((host, port))

    def llm_call(self, history, prompt, system):
        message = []
        if system:
            history.append((system, "Fine, let us play by these rules."))
        for chat in history:
            message.append({"role": "user", "content": chat[0]})
            message.append({"role": "agent", "content": chat[1]})
        message.append({"role": "user", "content": prompt})
        self.send_message(json.dumps(message))
        return self.receive_messages()
"""


FILES = {
    "src/server/tasks/dbbench/__init__.py": DB,
    "src/server/tasks/os_interaction/task.py": OS,
    "src/server/tasks/knowledgegraph/task.py": KG,
    "src/server/tasks/ltp/task.py": LTP,
    "src/server/tasks/webshop/__init__.py": WEBSHOP,
    "src/server/tasks/alfworld/task.py": ALFWORLD,
    "configs/tasks/alfworld.yaml": ALFWORLD_CONFIG,
    "src/server/tasks/mind2web/task.py": MIND2WEB_TASK,
    "src/server/tasks/mind2web/dataloader.py": MIND2WEB_LOADER,
    "configs/tasks/mind2web.yaml": MIND2WEB_CONFIG,
    "data/mind2web/prompt/examples.json": json.dumps(MIND2WEB_PROMPT, indent=1),
    "src/server/tasks/alfworld/prompts/examples.json": json.dumps(ALFWORLD_PROMPTS, indent=1),
    "src/server/tasks/card_game/AI/prompt/en.py": CARD_GAME_PROMPTS,
    "src/server/tasks/card_game/AI/client.py": CARD_GAME_CLIENT,
}


def write_checkout(root: Path, skip: tuple[str, ...] = ()) -> Path:
    """The stand-in checkout under ``root`` (``skip``: files left out)."""
    for relative, text in FILES.items():
        if relative in skip:
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
