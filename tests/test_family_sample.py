"""One id of every family made, reset and solved by its expert on its first task.

Slow, because the contract suite already covers every id in ``make test``; ``make test-pythons`` runs this file and
the registry test in fresh venvs of the oldest and the newest Python the project supports.
"""

import pytest

from agentgym_text.core.registry import families
from agentgym_text.testing import contract
from tests.conftest import env_param

FIRST_IDS = [family.ids[0].env_id for family in families()]


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [env_param(env_id) for env_id in FIRST_IDS])
def test_the_first_id_of_every_family_is_solved_by_its_expert(env_id):
    assert contract.check_expert_solves(env_id) >= 1
