"""A PEP 517 build backend on the standard library alone.

The package is pure Python, so a wheel is a zip of vsh/ plus its metadata.
With no build requirements, `pip install bindings/python` works without a
package index (pip's build isolation then has nothing to fetch).
Metadata comes from the [project] table of pyproject.toml.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = "vsh"


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        raw = f.read()
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the simple keys of [project]
        text = raw.decode("utf-8")
        sect = text.split("[project]", 1)[1].split("\n[", 1)[0]
        proj = dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', sect, re.M))
        lic = re.search(r'^license\s*=\s*\{\s*text\s*=\s*"([^"]*)"', sect, re.M)
        if lic:
            proj["license"] = {"text": lic.group(1)}
        proj["classifiers"] = re.findall(r'^\s*"([^"]+ :: [^"]+)",?$', sect, re.M)
        return proj
    return tomllib.loads(raw.decode("utf-8"))["project"]


def _metadata():
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p.get('description', '')}",
    ]
    if "license" in p:
        lines.append(f"License: {p['license']['text']}")
    if "requires-python" in p:
        lines.append(f"Requires-Python: {p['requires-python']}")
    lines += [f"Classifier: {c}" for c in p.get("classifiers", [])]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, p.get("readme", "README.md")), encoding="utf-8") as f:
        body = f.read()
    return p["name"], p["version"], "\n".join(lines) + "\n\n" + body


def _sources():
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(HERE, PKG)):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith(".py") or fn == "py.typed":
                full = os.path.join(dirpath, fn)
                out.append((os.path.relpath(full, HERE).replace(os.sep, "/"), full))
    return out


def _write_wheel(wheel_directory, files):
    """files: (archive name, bytes). Adds the dist-info; returns the name."""
    name, version, meta = _metadata()
    dist = f"{name}-{version}.dist-info"
    wheel = "Wheel-Version: 1.0\nGenerator: vsh_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files = list(files) + [(f"{dist}/METADATA", meta.encode("utf-8")),
                           (f"{dist}/WHEEL", wheel.encode())]
    record = []
    for arc, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.append(f"{arc},sha256={digest.decode()},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files.append((f"{dist}/RECORD", ("\n".join(record) + "\n").encode()))
    whl = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for arc, data in files:
            zi = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return whl


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for arc, full in _sources():
        with open(full, "rb") as f:
            files.append((arc, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # a .pth file puts this folder on sys.path
    return _write_wheel(wheel_directory, [(f"_{PKG}_editable.pth", (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    name, version, meta = _metadata()
    base = f"{name}-{version}"
    members = ["pyproject.toml", "README.md"] + [a for a, _ in _sources()]
    for dirpath, dirnames, filenames in os.walk(os.path.join(HERE, "build_backend")):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        members += [os.path.relpath(os.path.join(dirpath, f), HERE)
                    for f in sorted(filenames) if f.endswith(".py")]
    tgz = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, tgz), "w:gz",
                      format=tarfile.PAX_FORMAT) as t:
        for m in members:
            t.add(os.path.join(HERE, m), f"{base}/{m}", recursive=False)
        pkg_info = meta.encode("utf-8")
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size, ti.mode = len(pkg_info), 0o644
        t.addfile(ti, io.BytesIO(pkg_info))
    return tgz
