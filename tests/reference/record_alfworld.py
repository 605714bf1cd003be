"""Record AgentBoard's own ALFWorld env on games generated here (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/alfworld/alfworld_env.py`` UNMODIFIED, taken from a snapshot of hkust-nlp/AgentBoard,
in a separate virtual environment with alfworld 0.4.2 and textworld 1.7.0 from PyPI, on a few of this package's 134
default games exported in ALFWorld's layout, with subgoal annotations written here in AgentBoard's format (regexes
made from each game's goal, never AgentBoard's own data). For each game it plays two episodes, our expert's plan
with ``look``, ``check valid actions`` and an invalid command slipped in, and a seeded random walk over the listed
actions, calling ``get_action_space()`` before every step as AgentBoard's harness does (``tasks/alfworld.py``);
each step's observation, validity (the harness's grounding test), progress rate and done flag go to
``tests/reference/alfworld_agentboard.json`` with the annotation lines, which
``tests/test_alfworld_agentboard_data.py`` replays on ``AgentBoard/AlfWorld-v0`` with ``agentboard_fixes=False``.

Usage (three stages; the first and last run inside the reference venv, the middle one in ours)::

    python tests/reference/record_alfworld.py --setup --git-dir PATH    # venv + AgentBoard's files under /tmp
    PYTHONPATH=. .venv/bin/python tests/reference/record_alfworld.py --export      # games, annotations, plans
    /tmp/agentboard-alfworld-venv/bin/python tests/reference/record_alfworld.py --record

``--export`` also writes the annotations as a data folder, ``/tmp/agentboard-alfworld-work/data/alfworld/test.jsonl``;
``--record --data DIR --progress-out OUT`` gives AgentBoard ``DIR/alfworld/test.jsonl`` instead and writes
``OUT/alfworld.json`` (task id, actions, AgentBoard's progress after each), which ``benchmarks/agentboard_data.py
--data DIR --recorded OUT`` compares with ours. Its lines must name the exported games (AgentBoard's own data names
ALFWorld's downloaded games, which are not here).

AgentBoard was written for an older alfworld (installed from a fork) whose ``alfworld.agents.environment`` package
exported ``AlfredTWEnv``; 0.4.2 exports ``get_environment("AlfredTWEnv")`` instead, so the recorder sets that
attribute before AgentBoard's module is used (the module itself is not changed). AgentBoard's ``base_config.yaml`` is
read from the snapshot, with ``dataset.eval_ood_data_path`` pointed at the exported games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from agentboard_source import copy_files, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
OUT = HERE / "alfworld_agentboard.json"
VENV = Path("/tmp/agentboard-alfworld-venv")
SRC = Path("/tmp/agentboard-alfworld-src")
WORK = Path("/tmp/agentboard-alfworld-work")
CONFIG = "agentboard/environment/alfworld/base_config.yaml"
FILES = ("agentboard/environment/alfworld/alfworld_env.py", CONFIG, "agentboard/common/registry.py")
PINS = ("alfworld==0.4.2", "textworld[pddl]==1.7.0", "PyYAML", "jsonlines")
RECORDED_PER_TYPE = 2
"""Games recorded per task type (the first ones of the default set)."""
STEPS = 30
"""AgentBoard's ``max_num_steps``."""
SLIPS = ("look", "check valid actions", "jump over the table")


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    copy_files(git_dir, FILES, SRC)


# ---- --export: our venv ------------------------------------------------------------------------------------------
def annotation(world: dict, index: int) -> dict:
    """A line in AgentBoard's format for one generated game: regexes over ALFWorld's replies (every other line also
    has one only the ``check valid actions`` listing can match, as AgentBoard's scan of the listing allows)."""
    from agentgym_text.envs.alfworld.gamefile import game_name

    goal = world["goal"]
    obj = goal["object"].lower()
    patterns = [rf"you see .*\b{obj} \d", rf"You pick up the {obj} \d+ from"]
    verb = {"pick_clean_then_place_in_recep": "clean", "pick_heat_then_place_in_recep": "heat"}.get(goal["task_type"])
    verb = verb or {"pick_cool_then_place_in_recep": "cool"}.get(goal["task_type"])
    if verb:
        patterns.append(rf"You {verb} the {obj} \d+ using")
    if goal["task_type"] == "look_at_obj_in_light":
        patterns.append(rf"You turn on the {goal['toggle'].lower()} \d")
    else:
        patterns.append(rf"You move the {obj} \d+ to the {goal['receptacle'].lower()} \d")
    if index % 2:
        patterns.append(rf"take {obj} \d+ from")
    return {
        "goal": goal["sentence"],
        "subgoals": patterns,
        "difficulty": "hard" if len(patterns) > 3 else "easy",
        "additional_info": {"description": game_name(world)},
    }


def export() -> None:
    from agentgym_text.envs.alfworld.engine import World
    from agentgym_text.envs.alfworld.expert import expert_command
    from agentgym_text.envs.alfworld.gamefile import export_game, game_name
    from agentgym_text.envs.alfworld.tasks import load_world, make_tasks

    tasks, games = make_tasks()
    lines, plans, per_type = [], [], {}
    for index, task in enumerate(tasks):
        world = load_world(games, task.task_id)
        lines.append(annotation(world, index))
        short = task.params["task_type"]
        if per_type.get(short, 0) >= RECORDED_PER_TYPE:
            continue
        per_type[short] = per_type.get(short, 0) + 1
        root = WORK / "games" / task.task_id
        export_game(world, root / game_name(world))
        engine, plan = World(world), []
        engine.reset()
        while (command := expert_command(engine)) is not None:
            engine.step(command)
            plan.append(command)
        plans.append({"task_id": task.task_id, "name": game_name(world), "games": str(root), "plan": plan})
    data = WORK / "data" / "alfworld"
    data.mkdir(parents=True, exist_ok=True)
    (data / "test.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (WORK / "plans.json").write_text(json.dumps(plans, indent=1))
    print(f"wrote {len(lines)} annotation lines and {len(plans)} games to {WORK}")


# ---- --record: the reference venv --------------------------------------------------------------------------------
def _actions(rng: random.Random, plan: list[str], walk: bool):
    """The episode's actions, given what AgentBoard lists before each step (a generator fed by ``send``)."""
    listed = yield
    step = 0
    while True:
        if walk:
            roll = rng.random()
            if roll < 0.1:
                action = rng.choice(SLIPS)
            else:
                action = rng.choice([a for a in listed if a not in ("help", "check valid actions")])
        elif step in (0, 2, 5):
            action = SLIPS[(0, 2, 5).index(step)]
        elif step == 3:
            action = "look"
        else:
            action = plan.pop(0) if plan else "inventory"
        step += 1
        listed = yield action


def record(args) -> None:
    from importlib.metadata import version

    import alfworld.agents.environment as environments
    import yaml

    environments.AlfredTWEnv = environments.get_environment("AlfredTWEnv")  # the name older alfworlds exported
    alfworld_env = import_env_module(SRC, "alfworld.alfworld_env")  # the unmodified file
    label_path = (Path(args.data) if args.data else WORK / "data") / "alfworld" / "test.jsonl"
    labels = [json.loads(line) for line in label_path.read_text().splitlines() if line.strip()]
    plans = json.loads((WORK / "plans.json").read_text())
    config = yaml.safe_load((SRC / CONFIG).read_text())
    episodes = []
    for number, game in enumerate(plans):
        config["dataset"]["eval_ood_data_path"] = game["games"]
        config_path = WORK / "config.yaml"
        config_path.write_text(yaml.safe_dump(config))
        env = alfworld_env.AlfWorld(
            split="eval_out_of_distribution",
            base_config=str(config_path),
            batch_size=1,
            seed=0,
            label_path=str(label_path),
        )
        for walk in (False, True):
            rng = random.Random(2 * number + walk)
            env.reset()
            assert env.cur_task_name == game["name"], (env.cur_task_name, game["name"])
            steps = []
            episode = {
                "task_id": game["task_id"],
                "name": env.cur_task_name,
                "walk": walk,
                "observation": env.init_obs,
                "goal": env.goal,
                "difficulty": env.difficulty,
                "steps": steps,
            }
            chooser = _actions(rng, list(game["plan"]), walk)
            next(chooser)
            for _ in range(STEPS):
                listed = env.get_action_space()  # the harness's call before each step (it appends to the list)
                action = chooser.send(list(listed))
                valid = action in listed
                observation, reward, done, _info = env.step(action)
                steps.append(
                    {
                        "action": action,
                        "observation": observation,
                        "valid": valid,
                        "progress": reward,
                        "done": bool(done),
                    }
                )
                if done:
                    break
            episodes.append(episode)
        env.env.close()
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    if args.progress_out:
        out = Path(args.progress_out)
        out.mkdir(parents=True, exist_ok=True)
        rows = [
            {
                "task_id": e["task_id"],
                "actions": [s["action"] for s in e["steps"]],
                "progress": [s["progress"] for s in e["steps"]],
            }
            for e in episodes
        ]
        (out / "alfworld.json").write_text(json.dumps({"episodes": rows}, indent=1))
        print(f"wrote {len(rows)} episodes to {out / 'alfworld.json'}")
        return
    about = (
        f"AgentBoard's ALFWorld env (hkust-nlp/AgentBoard {commit}, environment/alfworld/alfworld_env.py, "
        f"unmodified) with alfworld {version('alfworld')}, textworld {version('textworld')}, on {len(plans)} of "
        f"our generated games with annotation lines written here: the expert's plan with slips and a seeded "
        f"random walk per game, written by tests/reference/record_alfworld.py"
    )
    body = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)
    label_lines = ",\n".join(json.dumps(label, separators=(",", ":")) for label in labels)
    OUT.write_text(f'{{"about": {json.dumps(about)},\n"labels": [\n{label_lines}\n],\n"episodes": [\n{body}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {OUT}")


def _options(parser) -> None:
    parser.add_argument("--export", action="store_true", help="write games, annotations and plans (our venv)")
    parser.add_argument("--data", default=None, help="an AgentBoard data folder to annotate with instead")
    parser.add_argument("--progress-out", default=None, help="write <folder>/alfworld.json for the benchmark")


if __name__ == "__main__":
    arguments = main(__doc__, setup, record, _options)
    if arguments.export:
        export()
