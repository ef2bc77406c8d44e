import os
import sys

import pytest

try:
    import vsh
except ImportError:  # not installed: the package of this folder
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import vsh


@pytest.fixture
def sb():
    with vsh.Sandbox(workspace_root="/workspace") as s:
        yield s
