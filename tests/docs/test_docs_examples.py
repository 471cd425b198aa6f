"""The code in the README and docs/architecture.md runs as written."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("doc", ["README.md", "docs/architecture.md", "docs/rl.md"])
def test_python_examples_in_docs_run(doc: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(ROOT / doc)
    assert blocks, f"{doc} has no python example"
    for block in blocks:
        exec(compile(block, doc, "exec"), {"__name__": "docs_example"})


def test_architecture_example_defines_a_working_game() -> None:
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(compile(python_blocks(ROOT / "docs/architecture.md")[0], "architecture.md", "exec"), namespace)
    state = namespace["state"]
    assert state.is_terminal()  # type: ignore[attr-defined]
    assert state.outcome().winners == (1,)  # type: ignore[attr-defined]
    assert [a for _, a in state.history] == [2, 3]  # type: ignore[attr-defined]


def test_readme_quick_start_has_exactly_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```sh\n(.*?)```", quick, re.S)[0]
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make play", "make test"]
