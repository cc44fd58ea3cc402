"""Every fenced block of README.md and docs/*.md runs as written, or says why not.

* ```python blocks are executed in a temporary folder holding the files they name
  (``tests/as_written.py``), and a block that is a plugin module registers cleanly;
* ```sh, ```console and ```bash blocks of ``sodos`` commands run through bash, with the
  installed command, in a temporary folder holding the files they name; each must end
  with exit status 0 (or the one ``<!-- exit status: N -->`` before the block
  documents), and a console transcript's shown output is the output. ``pip install``
  lines install what they name into a temporary folder (the example plugin) or check
  that it is installed (waitress, from the test extra); ``sodos serve`` starts on a free
  loopback port and is stopped once it listens. The README's two commands
  (tests/docs/test_readme.py, .ci/run) and docs/hosts.md's curl and Java blocks
  (tests/docs/test_service_examples.py) are run by their own tests;
* ```toml blocks are loaded by the config loader and accepted by ``sodos check``;
* ```json blocks are parsed, checked against the package's schema when they are a
  JSON tournament, and equal to the file the text before them links;
* ```text blocks are the output of the block before them (checked there) or a file of
  docs/ shown verbatim.

A block that cannot be run has ``<!-- not run: reason -->`` just before it;
:data:`NOT_RUN` lists them, so a new one is a decision made here, not an accident.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from as_written import commands, environment, kind, prepare, run, serve, sodos_command
from conftest import ROOT

from sodos_plugin.cli import COMMANDS, build_parser, chosen_command
from sodos_plugin.cli._options import option_strings
from sodos_plugin.config import settings
from sodos_plugin.schemas.catalog import load as load_schema

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
MARK = re.compile(r"^<!-- (not run|exit status|module): (.*) -->$")
SHELL = ("sh", "console", "bash")
SERVICE_URL = "127.0.0.1:8000"  # docs/hosts.md's service examples

#: (doc, reason) of every block marked not run
NOT_RUN = [
    ("README.md", "a diagram"),
    ("docs/architecture.md", "a diagram"),
    ("docs/hosts.md", "Java inside OpenGotha's source, which this project does not build"),
    (
        "docs/hosts.md",
        "Kotlin inside pairgoth's source, not built here (its build needs Maven Central)",
    ),
    (
        "docs/plugins.md",
        "an excerpt of docs/adapters/mcmahon_adapter.py, which tests/docs/test_mcmahon_adapter.py "
        "runs on Python 3.10",
    ),
    ("docs/ratings.md", "the account of a real archive of 7,259 files (benchmarks/README.md)"),
]


@dataclasses.dataclass(frozen=True)
class Block:
    doc: str  # path from the repository's root
    line: int  # line of the opening fence
    language: str
    body: str
    before: str  # the text between the previous block (or the start) and this one
    marks: tuple[tuple[str, str], ...]  # (not run | exit status, value) just before it
    previous: Block | None

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def not_run(self) -> str | None:
        return next((value for mark, value in self.marks if mark == "not run"), None)

    @property
    def module(self) -> str | None:
        """``<!-- module: NAME -->``: the block is a module a tool imports (a WSGI app)."""
        return next((value for mark, value in self.marks if mark == "module"), None)

    @property
    def status(self) -> int:
        return int(next((value for mark, value in self.marks if mark == "exit status"), 0))

    @property
    def output_of_previous(self) -> bool:
        """A text block right after a runnable block, or after one line ending with ':'
        (``It prints:``), is that block's output, unless it is a file shown verbatim."""
        between = [line for line in self.before.strip().splitlines() if line.strip()]
        close = not between or (len(between) == 1 and between[0].endswith(":"))
        if self.language != "text" or self.previous is None or not close:
            return False
        return verbatim_file(self) is None


def read_blocks(path: Path) -> list[Block]:
    text = path.read_text("utf-8")
    found: list[Block] = []
    end = 0
    for match in FENCE.finditer(text):
        before = text[end : match.start()]
        marks = []
        for line in reversed(before.rstrip("\n").splitlines()):
            mark = MARK.match(line.strip())
            if not mark:
                break
            marks.append((mark.group(1), mark.group(2).strip()))
        found.append(
            Block(
                doc=path.relative_to(ROOT).as_posix(),
                line=text[: match.start()].count("\n") + 1,
                language=match.group(1),
                body=match.group(2),
                before=before,
                marks=tuple(marks),
                previous=found[-1] if found else None,
            )
        )
        end = match.end()
    return found


BLOCKS = [block for path in DOCS for block in read_blocks(path)]


def first_line(block: Block) -> str:
    return block.body.splitlines()[0][:60] if block.body else ""


def elsewhere(block: Block) -> str | None:
    """The test that runs a shell block this module does not run."""
    if block.doc == "README.md" and block in BLOCKS[:2]:
        return "tests/docs/test_readme.py and .ci/run (the README's two commands)"
    if block.doc == "docs/hosts.md" and SERVICE_URL in block.body:
        return "tests/docs/test_service_examples.py (against the running service)"
    if block.doc == "docs/ratings.md" and SERVICE_URL in block.body:
        return "tests/docs/test_live_examples.py (against a service with a store)"
    return None


def verbatim_file(block: Block) -> Path | None:
    """The file under docs/ whose text the block is, if any."""
    for path in sorted((ROOT / "docs").rglob("*")):
        if path.is_file() and path.suffix not in (".md", ".pyc"):
            try:
                if path.read_text("utf-8") == block.body:
                    return path
            except UnicodeDecodeError:
                continue
    return None


def how(block: Block) -> str:
    """How the block is tested: the inventory the report lists."""
    if block.not_run is not None:
        return f"not run: {block.not_run}"
    if block.language == "python" and block.module:
        return f"imported as the module {block.module}, as the tool that uses it does"
    if block.language == "python":
        plugin = re.search(r"^@hookimpl$", block.body, re.M)
        return "executed; registered as a plugin" if plugin else "executed"
    if block.language == "toml" and "[project]" in block.body:
        return "loaded as a pyproject.toml, sodos check accepts it (pip installs it elsewhere)"
    if block.language == "toml":
        return "loaded as config, sodos check accepts it"
    if block.language == "json":
        return "parsed, checked against its schema and its file"
    if block.language in SHELL:
        other = elsewhere(block)
        if other:
            return f"run by {other}"
        kinds = {kind(command.line) for command in commands(block.body)}
        if kinds <= {"sodos", "serve", "pip"}:
            return "run: " + ", ".join(sorted(kinds))
    if block.language == "text":
        if block.output_of_previous:
            return f"output of {block.previous.id}, compared when that block runs"
        path = verbatim_file(block)
        if path is not None:
            return f"verbatim {path.relative_to(ROOT)}"
    return "unknown"


def of(language: str | tuple[str, ...]) -> list[Block]:
    languages = (language,) if isinstance(language, str) else language
    return [b for b in BLOCKS if b.language in languages and b.not_run is None]


def ids(blocks: list[Block]) -> list[str]:
    return [b.id for b in blocks]


def shown_after(block: Block) -> str | None:
    """The output a text block right after ``block`` shows, if any."""
    index = BLOCKS.index(block)
    after = BLOCKS[index + 1] if index + 1 < len(BLOCKS) else None
    if after is not None and after.doc == block.doc and after.output_of_previous:
        return after.body
    return None


# -- the inventory ----------------------------------------------------------------------


def test_every_block_is_tested_or_marked():
    unknown = [f"{b.id} [{b.language}] {first_line(b)}" for b in BLOCKS if how(b) == "unknown"]
    assert not unknown, "run these in a test, or mark them <!-- not run: reason -->"


def test_the_blocks_not_run_are_the_listed_ones():
    marked = [(b.doc, b.not_run) for b in BLOCKS if b.not_run is not None]
    assert marked == NOT_RUN


def test_there_are_blocks_of_every_kind():
    languages = {b.language for b in BLOCKS}
    assert {"python", "sh", "console", "bash", "toml", "json", "text"} <= languages
    assert len(BLOCKS) >= 35


# -- python -----------------------------------------------------------------------------


@pytest.mark.parametrize("block", of("python"), ids=ids(of("python")))
def test_python_block_runs(block, tmp_path):
    prepare(block.body, tmp_path)
    script = tmp_path / f"{block.module or 'block'}.py"
    script.write_text(block.body, encoding="utf-8")
    imported = f"import {block.module}"
    done = subprocess.run(
        [sys.executable, *(["-c", imported] if block.module else [str(script)])],
        cwd=tmp_path,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    assert done.returncode == 0, f"{block.id}\n{done.stderr[-3000:]}"
    shown = shown_after(block)
    if shown is not None:
        assert done.stdout == shown, block.id


PLUGIN_BLOCKS = [b for b in of("python") if re.search(r"^@hookimpl$", b.body, re.M)]


@pytest.mark.parametrize("block", PLUGIN_BLOCKS, ids=ids(PLUGIN_BLOCKS))
def test_plugin_block_registers_cleanly(host, block):
    """A block that is a plugin module is one: registered, it provides what it declares
    and no hook fails."""
    module = types.ModuleType(f"docs_block_{block.line}")
    exec(compile(block.body, block.id, "exec"), module.__dict__)
    host.register(module, name="docs-block")
    assert host.plugin_warnings() == []
    assert any(host.registry.plugins["docs-block"].provides.values()), block.id


# -- shell ------------------------------------------------------------------------------

SHELL_BLOCKS = [b for b in of(SHELL) if elsewhere(b) is None]


def pip_install(line: str, request) -> str | None:
    """A block's ``pip install``: never into the environment running the tests. The
    example plugin is installed into a temporary folder (conftest's docs_example_dir,
    once a session; returned, for PYTHONPATH); waitress is the test extra's, so it must
    already be there."""
    target = line.split("#", 1)[0].split()[2:]
    if target == ["./docs/example_plugin"]:
        return str(request.getfixturevalue("docs_example_dir"))
    if target == ["waitress"]:
        pytest.importorskip("waitress", reason="sodos serve needs waitress (the test extra)")
        return None
    raise AssertionError(f"no rule for {line!r}: say here how the test installs it")


def check_output(block: Block, line: str, stdout: str, stderr: str, shown: str | None):
    if shown is None:
        return
    assert shown in (stdout + stderr, stderr + stdout), (
        f"{block.id}: {line}\nshown:\n{shown}\nprinted:\n{stdout}{stderr}"
    )


def run_block(block: Block, folder: Path, request) -> None:
    """Run every command of a shell block in ``folder``, as the doc writes it; fail
    naming the command that did not end as documented."""
    folder.mkdir(parents=True, exist_ok=True)
    prepare(block.body, folder)
    python_path = None
    printed = ""
    for command in commands(block.body):
        what = kind(command.line)
        assert what != "other", f"{block.id}: {command.line!r} is not a sodos command"
        env = environment(folder, python_path)
        if what == "pip":
            python_path = pip_install(command.line, request) or python_path
            continue
        if what == "serve":
            pytest.importorskip("waitress", reason="sodos serve needs waitress (the test extra)")
            status, said = serve(command.line, folder, env)
            assert status == 0 and "sodos serve: stopped" in said, (block.id, command.line, said)
            continue
        done = run(command.line, folder, env)
        assert done.returncode == block.status, (
            f"{block.id}: {command.line}\nexit {done.returncode}, documented {block.status}\n"
            f"{done.stderr[-3000:]}"
        )
        assert "Traceback" not in done.stderr, done.stderr
        check_output(block, command.line, done.stdout, done.stderr, command.shown)
        printed += done.stdout
    shown = shown_after(block)  # a text block right after: what the commands print
    assert shown is None or printed == shown, f"{block.id}: shown\n{shown}\nprinted\n{printed}"


@pytest.mark.slow
@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=ids(SHELL_BLOCKS))
def test_shell_block_runs(block, tmp_path, request):
    run_block(block, tmp_path, request)


def test_a_broken_command_fails_its_block(tmp_path, request):
    """The runner itself: a block whose command stops working, or whose output is not the
    one shown, fails."""
    readme = next(b for b in SHELL_BLOCKS if b.doc == "README.md")
    broken = dataclasses.replace(readme, body=readme.body.replace("MMS,SOS,SODOS", "MMS,SOZ"))
    with pytest.raises(AssertionError, match="MMS,SOZ"):
        run_block(broken, tmp_path / "a", request)
    console = next(b for b in SHELL_BLOCKS if b.language == "console" and b.status == 2)
    wrong = dataclasses.replace(console, body=console.body.replace('"p9"', '"p8"'))
    with pytest.raises(AssertionError, match="shown"):
        run_block(wrong, tmp_path / "b", request)
    status = dataclasses.replace(console, marks=())  # exit status 2 documented as 0
    with pytest.raises(AssertionError, match="documented 0"):
        run_block(status, tmp_path / "c", request)


def test_the_command_run_is_the_installed_one():
    assert sodos_command().is_file()
    assert sodos_command().parent == Path(sys.executable).parent


# -- toml -------------------------------------------------------------------------------


@pytest.mark.parametrize("block", of("toml"), ids=ids(of("toml")))
def test_toml_block_is_an_accepted_config(block, tmp_path):
    pyproject = "[project]" in block.body  # a package's pyproject.toml: its [tool.sodos]
    name = "pyproject.toml" if pyproject else "sodos.toml"
    data = settings.load_bytes(block.body.encode("utf-8"), block.id, pyproject=pyproject)
    settings.resolve([(block.id, data)])  # raises a ConfigError naming a bad key
    if pyproject:  # the example package's: pip reads it (test_examples installs it)
        table = settings.tomllib.loads(block.body)
        assert table["project"]["entry-points"]["sodos"], block.id
    (tmp_path / name).write_text(block.body, encoding="utf-8")
    done = run(f"sodos check --config {name}", tmp_path, environment(tmp_path))
    assert done.returncode == 0, f"{block.id}\n{done.stdout}{done.stderr}"


# -- json -------------------------------------------------------------------------------


def linked_file(block: Block, suffix: str) -> Path | None:
    """The file with this suffix that the paragraph before the block links to."""
    paragraph = block.before.strip().split("\n\n")[-1]
    for target in re.findall(r"\]\(([^)#]+)\)", paragraph):
        path = (ROOT / block.doc).parent / target
        if path.suffix == suffix and path.is_file():
            return path
    return None


@pytest.mark.parametrize("block", of("json"), ids=ids(of("json")))
def test_json_block_is_a_valid_document(block, tmp_path):
    import jsonschema

    document = json.loads(block.body)
    if isinstance(document, dict) and document.get("format") == "sodos-tournament":
        jsonschema.Draft202012Validator(load_schema("tournament")).validate(document)
        (tmp_path / "shown.json").write_text(block.body, encoding="utf-8")
        done = run("sodos standings shown.json", tmp_path, environment(tmp_path))
        assert done.returncode == 0, done.stderr
    path = linked_file(block, ".json")
    if path is not None:
        assert block.body == path.read_text("utf-8"), f"{block.id} must show {path} verbatim"


def test_hosts_md_shows_the_complete_league_file():
    league, round_ = [b for b in of("json") if b.doc == "docs/hosts.md"]
    assert linked_file(league, ".json") == ROOT / "docs" / "json" / "league.json"
    assert "complete example" in league.before
    assert linked_file(round_, ".json") == ROOT / "docs" / "json" / "round.json"


# -- text -------------------------------------------------------------------------------


def test_text_blocks_are_outputs_or_files():
    for block in of("text"):
        assert block.output_of_previous or verbatim_file(block), block.id


# -- commands in the prose --------------------------------------------------------------

INLINE = re.compile(r"`(sodos [^`]+)`")


def inline_commands() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        text = FENCE.sub("", path.read_text("utf-8"))
        for command in INLINE.findall(" ".join(text.split())):
            found.append((path.relative_to(ROOT).as_posix(), command))
    return found


def test_commands_in_the_prose_name_real_commands_and_options():
    """`sodos plugins --kind rating` in a sentence: the command exists and takes each
    option named (the values are placeholders as often as not: PLAYER, FILE)."""
    assert len(inline_commands()) > 20
    for doc, command in inline_commands():
        words = command.split()[1:]
        if words and words[0] == "...":  # `sodos ... --format json`: any command
            known = {o for name in COMMANDS for o in option_strings(build_parser([name]))}
        else:
            if chosen_command(words) is None:
                assert all(w.startswith("-") for w in words), (doc, command)
            known = set(option_strings(build_parser(words)))
        for word in words:
            if word.startswith("--") and word != "--":
                option = word.split("=", 1)[0]
                assert option in known, f"{doc}: `{command}`: no option {option}"
