"""Sandbox: one test per call, against the libvsh named by VSH_LIBRARY."""

import errno
import stat
import threading
import time

import pytest

import vsh

ALL_BYTES = bytes(range(256))


def test_library_version():
    assert vsh.library_version() == vsh.__version__


def test_open_workspace_root_writable(sb):
    assert sb.workspace_root == "/workspace"
    r = sb.exec("pwd; stat -c '%U %a' .; touch made && echo ok")
    assert r == vsh.ExecResult(b"/workspace\nuser 755\nok\n", b"", 0)


def test_open_nested_workspace_root():
    with vsh.Sandbox(workspace_root="/srv/agent/ws/") as s:
        assert s.workspace_root == "/srv/agent/ws"
        assert s.exec("pwd; touch x && ls").stdout == b"/srv/agent/ws\nx\n"


def test_open_relative_root_refused():
    with pytest.raises(ValueError):
        vsh.Sandbox(workspace_root="workspace")


def test_open_env():
    with vsh.Sandbox(env={"GREETING": "hello there"}) as s:
        assert s.exec('echo "$GREETING"').stdout == b"hello there\n"


def test_open_limits():
    with vsh.Sandbox(limits={"max_commands": 50}) as s:
        r = s.exec("for i in $(seq 100); do true; done")
        assert r.exit_code == 126
        assert b"limit exceeded" in r.stderr


def test_open_unknown_limit_refused():
    with pytest.raises(ValueError, match="unknown limit"):
        vsh.Sandbox(limits={"max_bananas": 1})


def test_open_allow_urls():
    with vsh.Sandbox() as s:
        assert s.exec("command -v curl").exit_code == 1
    with vsh.Sandbox(allow_urls=["https://example.com/api"]) as s:
        assert s.exec("command -v curl").stdout == b"/usr/bin/curl\n"
        f = s.fork()
        assert f.exec("command -v curl").exit_code == 0
        f.close()


def test_exec_string(sb):
    r = sb.exec("echo out; echo err >&2; exit 3")
    assert (r.stdout, r.stderr, r.exit_code) == (b"out\n", b"err\n", 3)


def test_exec_fresh_shell_state_files_persist(sb):
    sb.exec("X=1; f() { :; }; echo kept > file")
    assert sb.exec('echo "${X-unset}"; type f').stdout == b"unset\n"
    assert sb.exec("cat file").stdout == b"kept\n"


def test_exec_argv_list_quoted(sb):
    argv = ["printf", "[%s]\\n", "a b", "it's", "$HOME", "*", "", "x\ny"]
    r = sb.exec(argv)
    assert r.stdout == b"[a b]\n[it's]\n[$HOME]\n[*]\n[]\n[x\ny]\n"


def test_exec_cwd(sb):
    sb.mkdir("sub/dir", parents=True)
    assert sb.exec("pwd").stdout == b"/workspace\n"
    assert sb.exec("pwd", cwd="sub/dir").stdout == b"/workspace/sub/dir\n"
    assert sb.exec("pwd", cwd="/tmp").stdout == b"/tmp\n"


def test_exec_cwd_missing_or_file(sb):
    sb.write_file("file", "x")
    with pytest.raises(FileNotFoundError):
        sb.exec("pwd", cwd="missing")
    with pytest.raises(NotADirectoryError):
        sb.exec("pwd", cwd="file")


def test_exec_env_layered():
    with vsh.Sandbox(env={"A": "base", "B": "b"}) as s:
        r = s.exec('echo "$A $B $C"', env={"A": "over", "C": "c"})
        assert r.stdout == b"over b c\n"
        assert s.exec('echo "$A"').stdout == b"base\n"


def test_exec_stdin_binary(sb):
    r = sb.exec("cat", stdin=ALL_BYTES)
    assert r.stdout == ALL_BYTES
    r = sb.exec("od -An -tx1 | head -1", stdin=ALL_BYTES)
    assert r.stdout.split() == [b"%02x" % i for i in range(16)]
    assert sb.exec("tr a-z A-Z", stdin="text in\n").stdout == b"TEXT IN\n"


def test_exec_binary_output(sb):
    sb.write_file("all.bin", ALL_BYTES)
    r = sb.exec("cat all.bin; printf '\\000\\377' >&2")
    assert r.stdout == ALL_BYTES
    assert r.stderr == b"\x00\xff"


def test_exec_timeout(sb):
    t0 = time.monotonic()
    with pytest.raises(vsh.ExecTimeout) as ei:
        sb.exec("echo started; while :; do :; done", timeout=0.3)
    assert time.monotonic() - t0 < 5
    assert isinstance(ei.value, TimeoutError)
    r = ei.value.result
    assert r.exit_code == 124
    assert r.stdout == b"started\n"
    assert b"timeout" in r.stderr
    assert sb.exec("echo still usable").stdout == b"still usable\n"


def test_exec_timeout_from_limits():
    with vsh.Sandbox(limits={"timeout_ms": 200}) as s:
        with pytest.raises(vsh.ExecTimeout) as ei:
            s.exec("sleep 10")
        assert ei.value.result.exit_code == 124


def test_exec_nonpositive_timeout_refused(sb):
    with pytest.raises(ValueError):
        sb.exec("true", timeout=0)


def test_exec_cancel_token_from_thread(sb):
    tok = vsh.CancelToken()
    threading.Timer(0.2, tok.set).start()
    t0 = time.monotonic()
    with pytest.raises(vsh.ExecCancelled) as ei:
        sb.exec("echo begun; while :; do sleep 0.01; done", cancel=tok)
    assert time.monotonic() - t0 < 5
    assert ei.value.result.stdout == b"begun\n"
    assert ei.value.result.exit_code == 130
    assert sb.exec("echo ok").stdout == b"ok\n"


def test_read_file(sb):
    sb.exec("printf 'line\\n' > t.txt")
    assert sb.read_file("t.txt") == b"line\n"
    assert sb.read_file("/workspace/t.txt", encoding="utf-8") == "line\n"


def test_read_file_errors(sb):
    sb.mkdir("d")
    sb.write_file("f", "x")
    with pytest.raises(FileNotFoundError) as ei:
        sb.read_file("missing")
    assert ei.value.errno == errno.ENOENT
    assert ei.value.filename == "/workspace/missing"
    with pytest.raises(IsADirectoryError):
        sb.read_file("d")
    with pytest.raises(NotADirectoryError):
        sb.read_file("f/under")
    with pytest.raises(FileNotFoundError):
        sb.read_file("")


def test_write_file_binary_all_bytes(sb):
    sb.write_file("all.bin", ALL_BYTES)
    assert sb.read_file("all.bin") == ALL_BYTES
    assert sb.exec("wc -c < all.bin").stdout.strip() == b"256"
    sb.write_file("all.bin", b"")  # replaces
    assert sb.read_file("all.bin") == b""


def test_write_file_text_and_mode(sb):
    sb.write_file("u.txt", "h\u00e9llo \u2603\n")
    assert sb.read_file("u.txt") == "h\u00e9llo \u2603\n".encode()
    sb.write_file("run.sh", "echo ran\n", mode=0o755)
    assert stat.S_IMODE(sb.stat("run.sh").st_mode) == 0o755
    assert sb.exec("./run.sh").stdout == b"ran\n"


def test_write_file_parents(sb):
    sb.write_file("deep/er/f", "x")
    assert sb.read_file("deep/er/f") == b"x"
    with pytest.raises(FileNotFoundError):
        sb.write_file("other/f", "x", parents=False)
    with pytest.raises(IsADirectoryError):
        sb.write_file("deep", "x")


def test_exists(sb):
    sb.write_file("f", "x")
    sb.exec("ln -s nowhere dangling")
    assert sb.exists("f")
    assert sb.exists("/workspace")
    assert not sb.exists("dangling")  # as os.path.exists: follows links
    assert not sb.exists("missing")
    assert not sb.exists("f/under")
    assert not sb.exists("")


def test_stat(sb):
    sb.write_file("f", "abc")
    sb.exec("ln -s f link")
    st = sb.stat("f")
    assert stat.S_ISREG(st.st_mode) and st.st_size == 3
    assert stat.S_ISDIR(sb.stat(".").st_mode)
    assert stat.S_ISREG(sb.stat("link").st_mode)
    assert stat.S_ISLNK(sb.stat("link", follow_symlinks=False).st_mode)
    with pytest.raises(FileNotFoundError):
        sb.stat("missing")


def test_ls(sb):
    sb.exec("mkdir -p d/sub; touch d/b d/a d/.hidden")
    assert sb.ls("d") == [".hidden", "a", "b", "sub"]
    assert sb.ls() == ["d"]
    with pytest.raises(FileNotFoundError):
        sb.ls("missing")
    with pytest.raises(NotADirectoryError):
        sb.ls("d/a")


def test_mkdir(sb):
    sb.mkdir("one")
    assert stat.S_ISDIR(sb.stat("one").st_mode)
    with pytest.raises(FileExistsError):
        sb.mkdir("one")
    with pytest.raises(FileNotFoundError):
        sb.mkdir("two/three")
    sb.mkdir("two/three", parents=True)
    sb.mkdir("two/three", parents=True)  # an existing directory is fine
    sb.write_file("file", "x")
    with pytest.raises(FileExistsError):
        sb.mkdir("file", parents=True)
    assert sb.exec("stat -c %U two/three").stdout == b"user\n"


def test_mkdir_outside_workspace(sb):
    sb.mkdir("/data/in", parents=True)
    assert sb.exec("touch /data/in/x && echo ok").stdout == b"ok\n"


def test_rm(sb):
    sb.exec("mkdir -p d/e; touch d/e/f file")
    sb.rm("file")
    assert not sb.exists("file")
    with pytest.raises(IsADirectoryError):
        sb.rm("d")
    sb.rm("d", recursive=True)
    assert not sb.exists("d")
    with pytest.raises(FileNotFoundError):
        sb.rm("missing")
    sb.rm("missing", force=True)


def test_persist_workspace(sb):
    import io
    import tarfile

    sb.exec("mkdir -p a/empty; printf x > a/f; ln -s f a/l; ln a/f hard")
    sb.write_file("skip.me", "no")
    data = sb.persist_workspace(skip=["skip.me"])
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        ms = {m.name: m for m in tf.getmembers()}
        assert sorted(ms) == [".", "./a", "./a/empty", "./a/f", "./a/l", "./hard"]
        assert ms["./a/l"].issym() and ms["./a/l"].linkname == "f"
        # a hard link is stored as a copy: hydrate refuses hard links
        assert ms["./hard"].isreg()
        assert tf.extractfile(ms["./hard"]).read() == b"x"


def test_persist_hydrate_round_trip(sb):
    sb.write_file("bin/all.bin", ALL_BYTES)
    sb.write_file("text.txt", "hello\n")
    sb.exec("mkdir -p empty/dir; ln -s ../text.txt bin/link; chmod 750 bin;"
            " chmod 4777 text.txt")
    data = sb.persist_workspace()
    with vsh.Sandbox(workspace_root="/home/agent/work") as other:
        other.hydrate_workspace(data)
        assert other.read_file("bin/all.bin") == ALL_BYTES
        assert other.read_file("bin/link") == b"hello\n"
        assert other.ls() == ["bin", "empty", "text.txt"]
        assert other.ls("empty") == ["dir"]
        out = other.exec("stat -c '%n %a' bin text.txt empty; readlink bin/link")
        # modes become (m & 0755) | 0600: setuid and group/other write go
        assert out.stdout == (b"bin 750\ntext.txt 755\nempty 755\n"
                              b"../text.txt\n")
        assert other.exec("touch new && echo ok").stdout == b"ok\n"


def test_hydrate_gzip(sb):
    import gzip

    sb.write_file("z", ALL_BYTES * 100)
    data = gzip.compress(sb.persist_workspace())
    with vsh.Sandbox() as other:
        other.hydrate_workspace(data)
        assert other.read_file("z") == ALL_BYTES * 100


def test_hydrate_modes_normalised(sb):
    data = make_tar([(".", "dir", 0o755), ("x", b"1", 0o400),
                     ("y", b"2", 0o6777), ("d", "dir", 0o700)])
    sb.hydrate_workspace(data)
    r = sb.exec("stat -c '%n %a' x y d")
    assert r.stdout == b"x 600\ny 755\nd 700\n"


def make_tar(entries, gz=False):
    """entries: (name, content) where content is bytes (a file), "dir",
    ("sym", target), ("hard", target), ("fifo",), optionally a mode."""
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w",
                      format=tarfile.GNU_FORMAT) as tf:
        for e in entries:
            name, content = e[0], e[1]
            ti = tarfile.TarInfo(name)
            ti.mode = e[2] if len(e) > 2 else 0o644
            ti.mtime = 1700000000
            if content == "dir":
                ti.type = tarfile.DIRTYPE
                tf.addfile(ti)
            elif isinstance(content, tuple) and content[0] == "sym":
                ti.type, ti.linkname = tarfile.SYMTYPE, content[1]
                tf.addfile(ti)
            elif isinstance(content, tuple) and content[0] == "hard":
                ti.type, ti.linkname = tarfile.LNKTYPE, content[1]
                tf.addfile(ti)
            elif isinstance(content, tuple) and content[0] == "fifo":
                ti.type = tarfile.FIFOTYPE
                tf.addfile(ti)
            else:
                ti.size = len(content)
                tf.addfile(ti, io.BytesIO(content))
    return buf.getvalue()


REJECTED = {
    "absolute": [("/etc/passwd", b"x")],
    "dotdot": [("a/../../x", b"x")],
    "dotdot_plain": [("../x", b"x")],
    "symlink_escape": [("d", "dir"), ("d/l", ("sym", "../../outside"))],
    "symlink_absolute": [("l", ("sym", "/etc"))],
    "duplicate_file": [("f", b"1"), ("f", b"2")],
    "duplicate_dot_spelling": [("f", b"1"), ("./f", b"2")],
    "file_then_dir": [("f", b"1"), ("f", "dir")],
    "hard_link": [("f", b"1"), ("g", ("hard", "f"))],
    "fifo": [("p", ("fifo",))],
    "backslash": [("a\\b", b"x")],
    "drive": [("C:/x", b"x")],
    "under_symlink": [("l", ("sym", "d")), ("d", "dir"), ("l/x", b"x")],
    "under_file": [("f", b"1"), ("f/x", b"2")],
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_hydrate_rejects(sb, case):
    sb.write_file("keep", "me")
    before = sb.persist_workspace()
    data = make_tar([("ok.txt", b"fine")] + REJECTED[case])
    with pytest.raises(vsh.ArchiveError):
        sb.hydrate_workspace(data)
    # nothing was written
    assert sb.persist_workspace() == before
    assert not sb.exists("ok.txt")
    assert not sb.exists("/etc/passwd")


def test_hydrate_rejects_truncated_and_garbage(sb):
    data = make_tar([("big", ALL_BYTES * 8)])
    with pytest.raises(vsh.ArchiveError):
        sb.hydrate_workspace(data[:1000])
    with pytest.raises(vsh.ArchiveError):
        sb.hydrate_workspace(b"not a tar at all" * 64)
    assert sb.ls() == []


def test_hydrate_never_follows_existing_symlink(sb):
    sb.exec("ln -s /tmp out")
    with pytest.raises(vsh.ArchiveError):
        sb.hydrate_workspace(make_tar([("out/x", b"escape")]))
    assert not sb.exists("/tmp/x")


def test_hydrate_accepts_dir_twice_and_inner_symlink(sb):
    sb.hydrate_workspace(make_tar([("d", "dir"), ("d", "dir"),
                                   ("d/f", b"in"), ("l", ("sym", "d/f"))]))
    assert sb.read_file("l") == b"in"


def test_snapshot_restore(sb):
    sb.write_file("f", "v1")
    snap = sb.snapshot()
    sb.write_file("f", "v2")
    sb.write_file("g", "new")
    sb.restore(snap)
    assert sb.read_file("f") == b"v1"
    assert not sb.exists("g")
    snap.close()
    with pytest.raises(ValueError):
        sb.restore(snap)


def test_snapshot_outlives_sandbox():
    with vsh.Sandbox() as a:
        a.write_file("f", ALL_BYTES)
        snap = a.snapshot()
    with vsh.Sandbox() as b, snap:
        b.restore(snap)
        assert b.read_file("f") == ALL_BYTES


def test_fork(sb):
    sb.write_file("shared", "s")
    with sb.fork() as child:
        assert child.workspace_root == "/workspace"
        assert child.read_file("shared") == b"s"
        child.write_file("shared", "changed")
        child.write_file("only-child", "c")
        assert sb.read_file("shared") == b"s"
        assert not sb.exists("only-child")
        assert child.exec("pwd").stdout == b"/workspace\n"


def test_close():
    s = vsh.Sandbox()
    s.write_file("f", "x")
    s.close()
    s.close()  # twice is fine
    assert s.closed
    with pytest.raises(ValueError):
        s.exec("true")
    with pytest.raises(ValueError):
        s.read_file("f")


def test_close_waits_for_running_exec():
    s = vsh.Sandbox()
    tok = vsh.CancelToken()
    errs = []

    def run():
        try:
            s.exec("while :; do sleep 0.01; done", cancel=tok)
        except vsh.ExecCancelled:
            errs.append("cancelled")

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.1)
    tok.set()
    s.close()
    t.join()
    assert errs == ["cancelled"]


def test_context_manager_closes():
    with vsh.Sandbox() as s:
        pass
    assert s.closed


def test_exec_limits_end_hostile_scripts():
    lim = {"max_output_bytes": 1000, "max_memory": 64 << 20}
    with vsh.Sandbox(limits=lim) as s:
        r = s.exec("yes | head -c 100000")
        assert r.exit_code == 126 and b"output bytes limit" in r.stderr
        r = s.exec("x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done")
        assert r.exit_code == 126 and b"memory limit" in r.stderr
        assert s.exec("echo fine").stdout == b"fine\n"


def test_threads_share_one_sandbox(sb):
    errors = []

    def worker(n):
        try:
            for i in range(10):
                data = bytes([n]) * (i + 1) + ALL_BYTES
                sb.write_file(f"t{n}/f{i}", data)
                assert sb.read_file(f"t{n}/f{i}") == data
                r = sb.exec(f"wc -c < t{n}/f{i}")
                assert r.stdout == b"%d\n" % len(data)
        except Exception as e:  # reported below
            errors.append(e)

    ts = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
    assert sb.ls() == ["t0", "t1", "t2", "t3"]


def test_sandboxes_in_parallel_threads():
    out = {}

    def worker(n):
        with vsh.Sandbox(workspace_root=f"/ws{n}") as s:
            out[n] = s.exec("pwd; echo $(( $(seq 3 | paste -sd+) ))").stdout

    ts = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == {n: b"/ws%d\n6\n" % n for n in range(4)}


def test_persist_hydrate_long_and_unicode_names(sb):
    deep = "/".join(["segment%02d" % i for i in range(20)])  # 219 bytes
    sb.write_file(f"{deep}/f\u00e9\u2603.txt", "deep")
    sb.exec(f"ln -s {'../' * 19}x {deep}/up")
    data = sb.persist_workspace()
    with vsh.Sandbox() as other:
        other.hydrate_workspace(data)
        assert other.read_file(f"{deep}/f\u00e9\u2603.txt") == b"deep"
        assert other.exec(f"readlink {deep}/up").stdout == ("../" * 19 + "x\n").encode()


def test_absolute_symlink_persists_but_does_not_hydrate(sb):
    # persist keeps every symlink as written; the workspace rules refuse an
    # absolute target when the archive comes back
    sb.exec("ln -s /usr/bin/env tool")
    data = sb.persist_workspace()
    with vsh.Sandbox() as other:
        with pytest.raises(vsh.ArchiveError) as ei:
            other.hydrate_workspace(data)
        assert ei.value.member == "./tool"
        assert "absolute" in str(ei.value)
        assert other.ls() == []


def test_open_with_files():
    files = {"src/a.txt": "a\n", "/etc/app.conf": b"k=v\n", "bin.dat": ALL_BYTES,
             "empty": b""}
    with vsh.Sandbox(workspace_root="/workspace", files=files) as s:
        assert s.read_file("src/a.txt") == b"a\n"
        assert s.read_file("/etc/app.conf") == b"k=v\n"
        assert s.read_file("bin.dat") == ALL_BYTES
        r = s.exec("stat -c '%s %a %U' empty src/a.txt; ls")
        assert r.stdout == b"0 644 user\n2 644 user\nbin.dat\nempty\nsrc\n"
    with pytest.raises(vsh.VshError):
        vsh.Sandbox(files={"a/b": "x", "a/b/c": "y"})
    with pytest.raises(TypeError):
        vsh.Sandbox(files={"a": 1})
