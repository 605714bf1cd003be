"""TRL's own GRPOTrainer with our environment_factory (two GRPO steps) and its SFTTrainer on expert demonstrations
(two SFT steps), on CPU, nothing downloaded.

Runs in `make test-rl` (installs the `trl` extra; torch is too big for the default suite), or with
AGENTGYM_TEXT_RL_TESTS=1. The model is a tiny Qwen3 built from a config; the tokenizer is a byte-level BPE
trained here, with TRL's own Qwen3 chat template (which renders tool calls, and which TRL knows how to parse).
A random tiny model almost never writes a well-formed tool call, so generation is scripted: ``generate`` writes
a tool call chosen by a seeded script from the prompt so far; everything else (tool parsing, calling the env's
methods, rewards, the loss and the optimizer step) is TRL's.
"""

import json
import os
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

if os.environ.get("AGENTGYM_TEXT_RL_TESTS") != "1":
    pytest.skip("RL tests run in `make test-rl` (AGENTGYM_TEXT_RL_TESTS=1)", allow_module_level=True)

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
transformers = pytest.importorskip("transformers")

from datasets import Dataset  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402
from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

from agentgym_text.integrations import tool_call_from_action  # noqa: E402
from agentgym_text.integrations.datasets import tasks  # noqa: E402
from agentgym_text.integrations.trl import environment_factory, train_dataset  # noqa: E402

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def make_tokenizer() -> PreTrainedTokenizerFast:
    template = (Path(trl.__file__).parent / "chat_templates" / "qwen3.jinja").read_text(encoding="utf-8")
    corpus = [template, "guess 0123 4567 89 act command check valid actions", json.dumps({"name": "act"})] * 3
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.train_from_iterator(
        corpus,
        trainers.BpeTrainer(
            vocab_size=400, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        ),
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, eos_token="<|im_end|>", pad_token="<|endoftext|>", padding_side="left"
    )
    fast.chat_template = template
    return fast


def tiny_qwen3_config(tokenizer: PreTrainedTokenizerFast) -> Qwen3Config:
    """A one-layer Qwen3 of width 32 over ``tokenizer``'s vocabulary."""
    return Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        max_position_embeddings=32768,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.pad_token_id,
    )


class ScriptedQwen3(Qwen3ForCausalLM):
    """A real (tiny) Qwen3 whose ``generate`` writes what ``script(prompt_text)`` says."""

    script = None
    tokenizer = None

    def generate(self, input_ids=None, attention_mask=None, **kwargs):
        rows = []
        for ids, mask in zip(input_ids, attention_mask):
            text = self.tokenizer.decode(ids[mask.bool()].tolist())
            rows.append(self.tokenizer.encode(self.script(text), add_special_tokens=False))
        width = max(len(row) for row in rows)
        pad = self.tokenizer.pad_token_id
        completions = torch.tensor([row + [pad] * (width - len(row)) for row in rows], device=input_ids.device)
        return torch.cat([input_ids, completions], dim=1)


def tool_call_text(action: str, env) -> str:
    call = tool_call_from_action(action, "x", env)["function"]
    payload = {"name": call["name"], "arguments": json.loads(call["arguments"])}
    return f"<tool_call>\n{json.dumps(payload)}\n</tool_call><|im_end|>"


def make_script(good_actions, bad_action, env, seed):
    """Turn t: the t-th good action (p=0.6) or a bad one, as a tool call; after the good ones, a plain reply."""
    rng = np.random.default_rng(seed)

    def script(prompt_text):
        turn = prompt_text.count("<tool_response>")
        if turn >= len(good_actions):
            return "I am done.<|im_end|>"
        action = good_actions[turn] if rng.random() < 0.6 else bad_action
        return tool_call_text(action, env)

    return script


def grpo_args(tmp_path, tool_calls: int) -> GRPOConfig:
    """Two GRPO steps, each one prompt's four rollouts."""
    return GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=4,
        num_generations=4,
        max_steps=2,
        logging_steps=1,
        learning_rate=1e-4,
        max_completion_length=4096,
        max_tool_calling_iterations=tool_calls,
        report_to="none",
        save_strategy="no",
        bf16=False,
        fp16=False,
        seed=0,
        dataloader_num_workers=0,
    )


def expert_actions(env_id, task_id, seed, **env_kwargs):
    env = gym.make(env_id, **env_kwargs)
    env.reset(seed=seed, options={"task_id": task_id})
    actions = []
    while not env.unwrapped.episode_over:
        action = env.unwrapped.expert_action()
        actions.append(action)
        env.step(action)
    env.close()
    return actions


@pytest.mark.parametrize(
    "env_id, env_kwargs, split, bad_action, function_tools",
    [
        ("AgentQuest/Mastermind-v0", None, "train", "guess 9876", False),
        (
            "AgentBoard/ToolQuery-v0",
            {"tool": "weather"},
            "test",
            'finish with Action Input: {"answer": "no idea"}',
            True,
        ),
    ],
)
def test_two_grpo_steps_with_the_env_factory(tmp_path, env_id, env_kwargs, split, bad_action, function_tools):
    rows = tasks(env_id, split, limit=1, tools=True)
    row = rows[0]
    env_kwargs = env_kwargs if env_kwargs is not None else row["env_kwargs"]
    good = expert_actions(env_id, row["task_id"], row["seed"], **env_kwargs)
    # the prompt carries only the system prompt: reset() appends the first observation to the user turn
    dataset = Dataset.from_list(
        [
            {
                "prompt": [{"role": "system", "content": row["system_prompt"]}, {"role": "user", "content": ""}],
                "task_id": row["task_id"],
                "seed": row["seed"],
            }
        ]
        * 4
    )

    tokenizer = make_tokenizer()
    config = tiny_qwen3_config(tokenizer)
    torch.manual_seed(0)
    model = ScriptedQwen3(config)
    ScriptedQwen3.tokenizer = tokenizer
    # the env words the tool calls of its functions (None: the act tool)
    caller = gym.make(env_id, **env_kwargs) if function_tools else None
    ScriptedQwen3.script = staticmethod(make_script(good, bad_action, caller, seed=0))

    factory = environment_factory(env_id, **env_kwargs)
    args = grpo_args(tmp_path, tool_calls=len(good) + 1)
    trainer = GRPOTrainer(
        model=model, args=args, train_dataset=dataset, processing_class=tokenizer, environment_factory=factory
    )
    trainer.train()

    instances = factory.env_class.instances
    # one env per rollout of a generation batch (TRL pools them across steps and resets each per rollout)
    assert len(instances) == args.per_device_train_batch_size
    assert [instance.resets for instance in instances] == [2] * len(instances)
    assert sum(instance.calls for instance in instances) > 0  # the env's tools were called by the trainer
    assert any(action == good[0] for instance in instances for action, _ in instance.trajectory)
    history = [entry for entry in trainer.state.log_history if any("reward" in key for key in entry)]
    assert len(history) == 2
    name = factory.env_class.__name__
    keys = [key for key in history[-1] if name in key and key.endswith("mean")]
    assert keys, f"the env reward is not among the logged metrics: {sorted(history[-1])}"
    # the last batch's env rewards are what the trainer logged for the env reward
    last = np.mean([instance.get_reward() for instance in instances])
    assert history[-1][keys[0]] == pytest.approx(last, abs=1e-6)
    assert max(entry[keys[0]] for entry in history) > 0.0
    print(
        env_id,
        {key: [entry.get(key) for entry in history] for key in sorted(history[-1]) if "reward" in key or "tool" in key},
    )


def test_two_sft_steps_on_expert_demonstrations_of_three_families(tmp_path):
    """``demos`` output for three families, loaded with ``datasets`` as it is, trains TRL's SFTTrainer on the
    assistant turns (the expert's replies) for two steps."""
    from datasets import load_dataset
    from trl import SFTConfig, SFTTrainer

    from agentgym_text.integrations.demos import DEMOS, DemoConfig, make_demos

    families = ["AgentQuest/Mastermind-v0", "AgentBoard/BabyAI-v0", "AgentBoard/PDDL-v0"]
    result = make_demos(DemoConfig(envs=families, episodes=3, progress_bar=False), tmp_path / "demos")
    assert result.solved == result.written == 3 and result.mismatches == []
    dataset = load_dataset("json", data_files=str(tmp_path / "demos" / DEMOS), split="train")
    assert len(dataset) == result.rows and set(dataset["env_id"]) == set(families)
    assert {"messages", "task_id", "seed", "split", "progress", "success", "steps", "step"} <= set(dataset.column_names)
    assert dataset[0]["messages"][-1]["role"] == "assistant" and dataset[0]["messages"][-1]["weight"] == 1

    tokenizer = make_tokenizer()
    config = tiny_qwen3_config(tokenizer)
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(config)
    before = [parameter.detach().clone() for parameter in model.parameters()]
    args = SFTConfig(
        output_dir=str(tmp_path / "sft"),
        per_device_train_batch_size=2,
        max_steps=2,
        logging_steps=1,
        learning_rate=1e-3,
        max_length=None,
        assistant_only_loss=True,
        report_to="none",
        save_strategy="no",
        bf16=False,
        fp16=False,
        seed=0,
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer)
    # the loss covers the expert's replies only: every labelled token lies in an assistant turn
    batch = trainer.data_collator([trainer.train_dataset[0]])
    labelled = tokenizer.decode(batch["input_ids"][0][batch["labels"][0] != -100])
    assert labelled.strip() and "Action: " in labelled and "Observation" not in labelled
    trainer.train()
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    assert len(losses) == 2 and all(np.isfinite(losses))
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters()))


MIXTURE = {"AgentQuest/Mastermind-v0": 1, "AgentQuest/Sudoku-v0": 1}
BAD_ACTIONS = {"AgentQuest/Mastermind-v0": "guess 9876", "AgentQuest/Sudoku-v0": "put 0 at row 9 column 9"}
TURNS = 4  # expert actions the script plays at most (Sudoku's episode is 43)


def test_two_grpo_steps_on_a_two_id_mixture(tmp_path):
    """``train_dataset`` and ``environment_factory`` of the same two ids: TRL routes each row to its id's env (its
    ``environment`` column), each env resets to its own row's task with the row's training kwargs, and both ids'
    rewards reach the trainer."""
    dataset, common_kwargs = train_dataset(MIXTURE, "train", size=2)
    assert sorted(dataset["environment"]) == sorted(MIXTURE) and dataset["environment"] == dataset["env_id"]
    assert common_kwargs is None  # Mastermind's training rows carry num_tasks=, Sudoku's split=
    rows = {row["env_id"]: row for row in dataset}
    plans = {
        env_id: expert_actions(env_id, row["task_id"], row["seed"], **json.loads(row["env_kwargs"]))[:TURNS]
        for env_id, row in rows.items()
    }
    scripts = {env_id: make_script(plans[env_id], BAD_ACTIONS[env_id], None, seed=0) for env_id in MIXTURE}

    def script(prompt_text):
        (env_id,) = [env_id for env_id, row in rows.items() if row["system_prompt"] in prompt_text]
        return scripts[env_id](prompt_text)

    tokenizer = make_tokenizer()
    torch.manual_seed(0)
    model = ScriptedQwen3(tiny_qwen3_config(tokenizer))
    ScriptedQwen3.tokenizer = tokenizer
    ScriptedQwen3.script = staticmethod(script)
    factories = environment_factory(MIXTURE)
    assert sorted(factories) == sorted(MIXTURE)
    trainer = GRPOTrainer(
        model=model,
        args=grpo_args(tmp_path, tool_calls=TURNS + 1),
        train_dataset=dataset,
        processing_class=tokenizer,
        environment_factory=factories,
    )
    trainer.train()

    history = [entry for entry in trainer.state.log_history if any("reward" in key for key in entry)]
    assert len(history) == 2
    for env_id, factory in factories.items():
        instances = factory.env_class.instances
        # TRL's probe, then one instance per rollout of the step whose prompt is this id's row
        assert len(instances) == 4 and [instance.resets for instance in instances] == [1] * 4
        assert {instance.info["task_id"] for instance in instances} == {rows[env_id]["task_id"]}
        assert all(instance._env.spec.id == env_id for instance in instances)
        assert any(action == plans[env_id][0] for instance in instances for action, _ in instance.trajectory)
        logged = [entry.get(f"rewards/{factory.env_class.__name__}/mean") for entry in history]
        # each step's prompt is one id's row: that id's reward is logged there, NaN on the other step
        assert sum(np.isfinite(value) for value in logged if value is not None) == 1, logged
        assert max(value for value in logged if value is not None and np.isfinite(value)) > 0.0
