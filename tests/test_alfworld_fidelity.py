"""Our ALFWorld engine against the official stack (textworld ``PddlEnv`` + ``AlfredDemangler``), step by step.

Each trajectory mixes expert actions (so goals get reached), random admissible commands (biased away from
``go to`` so that taking, moving, opening, heating, ... happen) and an inadmissible command now and then. At
every step the feedback text, the sorted admissible commands and ``won`` must be equal. The default run checks
one small game; ``-m slow`` checks 30 games (5 per task type) x 40 steps and loads games through alfworld's
own ``AlfredTWEnv``.
"""

import random

import pytest

pytest.importorskip("textworld")
pytest.importorskip("fast_downward")

from agentgym_text.envs.alfworld.engine import World  # noqa: E402
from agentgym_text.envs.alfworld.expert import expert_command  # noqa: E402
from agentgym_text.envs.alfworld.generator import generate_world  # noqa: E402
from agentgym_text.envs.alfworld.official import OfficialGame  # noqa: E402
from agentgym_text.envs.alfworld.tasks import DEFAULT_COUNTS, task_specs  # noqa: E402

SLOW_GAMES = [triple for kind in DEFAULT_COUNTS for triple in [t for t in task_specs() if t[0] == kind][:5]]
FAST_GAMES = [("look", 301, 0)]


def _compare(short_type: str, floorplan: int, seed: int, steps: int) -> None:
    world = generate_world(floorplan, short_type, seed)
    ours, official = World(world), OfficialGame(world)
    try:
        feedback, admissible, won = official.reset()
        assert ours.reset() == feedback
        assert ours.admissible() == admissible and ours.won() == won
        rng = random.Random(f"{short_type}-{floorplan}-{seed}")
        for step in range(steps):
            roll = rng.random()
            others = [c for c in admissible if not c.startswith("go to")]
            if roll < 0.3:
                command = expert_command(ours) or "look"
            elif roll < 0.6 and others:
                command = rng.choice(others)
            elif roll < 0.95:
                command = rng.choice(admissible)
            else:
                command = rng.choice(["take apple 99 from nowhere", "go to the moon", "examine cabinet 1", "open"])
            feedback, admissible, won = official.step(command)
            where = f"{short_type} FloorPlan{floorplan} seed {seed}, step {step}: {command!r}"
            assert ours.step(command) == feedback, where
            assert ours.admissible() == admissible, where
            assert ours.won() == won, where
    finally:
        official.close()


@pytest.mark.parametrize("game", FAST_GAMES, ids=lambda g: "-".join(map(str, g)))
def test_engine_matches_official_stack_on_a_small_game(game):
    _compare(*game, steps=12)


@pytest.mark.slow
@pytest.mark.parametrize("game", SLOW_GAMES, ids=lambda g: "-".join(map(str, g)))
def test_engine_matches_official_stack_step_by_step(game):
    _compare(*game, steps=40)


@pytest.mark.slow
def test_generated_games_load_through_alfworlds_own_gym_env(tmp_path):
    from alfworld.agents.environment.alfred_tw_env import AlfredTWEnv

    from agentgym_text.envs.alfworld.gamefile import export_game

    world = generate_world(301, "pick", 0)
    export_game(world, tmp_path / "pick_and_place_simple-Pencil-None-Shelf-301" / "trial_0")
    config = {
        "env": {
            "goal_desc_human_anns_prob": 0.0,
            "task_types": [1],
            "domain_randomization": False,
            "expert_type": "handcoded",
        },
        "dataset": {"data_path": str(tmp_path), "num_train_games": -1},
        "general": {"training_method": "dagger"},
        "dagger": {"training": {"max_nb_steps_per_episode": 50}},
    }
    alfred = AlfredTWEnv(config, train_eval="train")
    assert len(alfred.game_files) == 1
    env = alfred.init_env(batch_size=1)
    obs, infos = env.reset()
    ours = World(world)
    assert obs[0] == ours.reset()
    assert sorted(infos["admissible_commands"][0]) == ours.admissible()
    env.close()


class _Lockstep:
    """Ours and the official stack side by side; ``do`` asserts equal feedback, admissible commands and won."""

    def __init__(self, world):
        self.ours, self.official = World(world), OfficialGame(world)
        feedback, self.admissible, _ = self.official.reset()
        assert self.ours.reset() == feedback

    def do(self, command):
        feedback, self.admissible, won = self.official.step(command)
        assert self.ours.step(command) == feedback, command
        assert self.ours.admissible() == self.admissible and self.ours.won() == won, command
        return feedback

    def reach(self, receptacle):
        ours = self.ours
        if ours.location[receptacle] != ours.agent_location:
            self.do(f"go to {ours.names[receptacle]}")
        if not ours.visible(receptacle):
            self.do(f"open {ours.names[receptacle]}")


@pytest.mark.slow
def test_slicing_and_stacked_object_states_match():
    side = _Lockstep(generate_world(1, "heat", 2))
    ours, names = side.ours, side.ours.names
    knife = next(o for o in ours.object_ids if o in ours.knives)
    side.reach(ours.inside[knife])
    side.do(f"take {names[knife]} from {names[ours.inside[knife]]}")
    side.do(f"examine {names[knife]}")
    side.do("inventory")
    target = next(o for o in ours.object_ids if o in ours.sliceable)
    home = ours.inside[target]
    side.reach(home)
    assert side.do(f"slice {names[target]} with {names[knife]}").startswith("You sliced")
    side.do(f"move {names[knife]} to {names[home]}")
    side.do(f"take {names[target]} from {names[home]}")
    assert side.do(f"examine {names[target]}") == f"This is a sliced {names[target]}."
    microwave = next(r for r in ours.receptacle_ids if ours.rtype[r] == "Microwave")
    side.do(f"go to {names[microwave]}")
    side.do(f"heat {names[target]} with {names[microwave]}")
    assert side.do(f"examine {names[target]}") == f"This is a hot sliced {names[target]}."
    side.official.close()


@pytest.mark.slow
def test_objects_moved_between_receptacles_sharing_a_pose_show_as_next_to_it():
    seed = next(
        s
        for s in range(50)
        if any(
            len(rs) > 1 and any(World(generate_world(1, "pick", s)).contents[r] for r in rs)
            for rs in World(generate_world(1, "pick", s)).receptacles_at.values()
        )
    )
    side = _Lockstep(generate_world(1, "pick", seed))
    ours, names = side.ours, side.ours.names
    shared = next(rs for rs in ours.receptacles_at.values() if len(rs) > 1 and any(ours.contents[r] for r in rs))
    source = next(r for r in shared if ours.contents[r])
    target = next(r for r in shared if r != source)
    obj = sorted(ours.contents[source])[0]
    side.reach(source)
    side.reach(target)
    side.do(f"take {names[obj]} from {names[source]}")
    side.do(f"move {names[obj]} to {names[target]}")
    assert side.do("look").endswith(f"Next to it, you see a {names[obj]}.")
    assert side.do(f"go to {names[target]}") == "Nothing happens."
    side.official.close()
