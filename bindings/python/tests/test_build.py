"""The in-folder build backend makes an installable wheel with no index."""

import os
import sys
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "build_backend"))

import vsh_build  # noqa: E402


def test_build_wheel(tmp_path):
    assert vsh_build.get_requires_for_build_wheel() == []
    name = vsh_build.build_wheel(str(tmp_path))
    assert name == "vsh-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name) as z:
        names = set(z.namelist())
        assert {"vsh/__init__.py", "vsh/_sandbox.py", "vsh/_lib.py",
                "vsh/_archive.py", "vsh/_async.py", "vsh/py.typed",
                "vsh-0.1.0.dist-info/METADATA", "vsh-0.1.0.dist-info/WHEEL",
                "vsh-0.1.0.dist-info/RECORD"} <= names
        assert not any("__pycache__" in n or n.startswith("tests/") for n in names)
        meta = z.read("vsh-0.1.0.dist-info/METADATA").decode()
        assert "Name: vsh\n" in meta and "License: Apache-2.0\n" in meta
        record = z.read("vsh-0.1.0.dist-info/RECORD").decode().splitlines()
        assert len(record) == len(names)


def test_build_sdist(tmp_path):
    import tarfile

    name = vsh_build.build_sdist(str(tmp_path))
    with tarfile.open(tmp_path / name) as t:
        got = t.getnames()
    assert "vsh-0.1.0/PKG-INFO" in got
    assert "vsh-0.1.0/build_backend/vsh_build.py" in got
    assert "vsh-0.1.0/vsh/_sandbox.py" in got
