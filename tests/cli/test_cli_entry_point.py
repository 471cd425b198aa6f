"""The real console script and ``python -m holotable``, in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_python_dash_m_lists_games_as_json():
    proc = run(sys.executable, "-m", "holotable", "games", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "captain-black" in [g["name"] for g in json.loads(proc.stdout)]


def test_console_script_plays_a_piped_game():
    script = Path(sys.executable).parent / "holotable"
    if not script.exists():
        pytest.skip("the holotable console script is not installed next to this Python")
    proc = run(str(script), "play", "captain-black", "--players", "2", "--humans", "1", "--bots", "random",
               "--seed", "1", "--param", "start_seat=0", stdin="draw 2\nhelp\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Seat 1> draw 2" in proc.stdout
    assert "Seat 1 draws 2" in proc.stdout
    assert "Legal actions" in proc.stdout


def test_unknown_game_exits_2_without_traceback():
    proc = run(sys.executable, "-m", "holotable", "simulate", "no-such-game")
    assert proc.returncode == 2
    assert "no game called 'no-such-game'" in proc.stderr
    assert "Traceback" not in proc.stderr
