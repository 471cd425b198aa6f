"""``holotable kyrum`` campaign commands driven through typer's CliRunner with piped input (spec §9.2).

KYR-CAMPAIGN-02, KYR-CAMPAIGN-03, KYR-CAMPAIGN-05, KYR-CAMPAIGN-09, KYR-END-06, KYR-THOTH-01, KYR-THOTH-04,
assumed:KYR-AMB-14, assumed:KYR-AMB-39.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from holotable.cli.seal import local_seal
from holotable.games.kyrum.campaign_commands import register
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.store import KyrumStore

PACK = load_pack("kyrum-demo")
#: Reads and writes campaign rows as the command does (seeds sealed with this user's key).
BOOK = KyrumStore(":memory:", seal=local_seal())


def make_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def root() -> None:
        """A stand-in for the ``holotable kyrum`` sub-app."""

    register(app)
    return app


APP = make_app()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "kyrum.sqlite3"


def run(db: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(APP, [*args, "--database", str(db)], input=input)


def actions(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT action FROM actions ORDER BY game_id, ply")]


def test_new_list_and_status(db: Path) -> None:
    """KYR-CAMPAIGN-03, KYR-CAMPAIGN-09: a campaign is created with its partner mode; list and status show it."""
    made = run(db, "new", "ada", "--seed", "3")
    assert made.exit_code == 0, made.output
    assert "Campaign 'ada' · pack kyrum-demo · no Black Hole partner" in made.output
    assert "holotable kyrum continue ada" in made.output
    assert run(db, "new", "bob", "--partner", "--partner-name", "Marta", "--seed", "4").exit_code == 0
    again = run(db, "new", "ada")
    assert again.exit_code == 2 and "already exists" in again.output
    listed = run(db, "list")
    assert listed.exit_code == 0
    ada = next(ln for ln in listed.output.splitlines() if ln.split()[:1] == ["ada"])
    assert ada.split()[1:5] == ["kyrum-demo", "-", "0/30", "0"]
    assert "Marta" in next(ln for ln in listed.output.splitlines() if ln.split()[:1] == ["bob"])
    status = run(db, "status", "ada")
    assert status.exit_code == 0 and "0/30 games finished (0 won) · next game 1" in status.output
    assert "main scripts read 0/115" in status.output
    missing = run(db, "status", "zed")
    assert missing.exit_code == 2 and "no campaign named 'zed'" in missing.output


def test_database_defaults_to_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    made = CliRunner().invoke(APP, ["new", "ada", "--seed", "1"])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "data" / "holotable" / "kyrum.sqlite3").is_file()
    assert "ada" in CliRunner().invoke(APP, ["list"]).output


def test_play_a_few_moves_quit_and_continue(db: Path) -> None:
    """assumed:KYR-AMB-39, KYR-CAMPAIGN-02: moves by number and by text are saved as they are played; a
    refused action saves nothing; 'continue' resumes the same game at the same ply."""
    run(db, "new", "ada", "--seed", "3")
    first = run(db, "continue", "ada", input="help\n1\nfly to the moon\ncrafting\n1\nquit\n")
    assert first.exit_code == 0, first.output
    out = first.output
    assert "Game 1 of 30: objectives B F N" in out
    assert "Actions:" in out and "scoreboard" in out  # the help lists actions and commands
    assert "✗ cannot read 'fly to the moon'" in out
    assert out.count("1 R → +6 FUEL, +1 HP") == 2  # at the start of the game and on request
    assert "Saved. Resume with: holotable kyrum continue ada" in out
    played = actions(db)
    assert len(played) == 2
    with KyrumStore(db, seal=local_seal()) as store:
        camp = store.open("ada")
        assert camp.match is not None
        legal = [str(a) for a in camp.match.state.legal_actions()]
        fingerprint = camp.match.state.fingerprint()
    text_move = legal[-2]  # by its text this time ('leave' or another move)
    second = run(db, "continue", input=f"view\n{text_move}\nquit\n")
    assert second.exit_code == 0, second.output
    assert "Resuming game 1 of campaign 'ada' (2 actions so far)." in second.output
    assert actions(db) == [*played, text_move]
    with KyrumStore(db, seal=local_seal()) as store:
        replayed = store.open("ada")
        assert replayed.match is not None
        reference = replayed.match.state_at(2)
        assert reference.fingerprint() == fingerprint


def test_a_whole_game_then_comment_and_next_game(db: Path) -> None:
    """KYR-END-06, KYR-CAMPAIGN-03, assumed:KYR-AMB-45: concede (confirmed), finish the end-of-game steps,
    comment the game, see the scoreboard, start the next game."""
    run(db, "new", "ada", "--seed", "3")
    steps = "concede\nn\nconcede\ny\n" + "1\n" * 12 + "comment Ash everywhere\nscoreboard\nnext\nquit\n"
    done = run(db, "continue", input=steps)
    assert done.exit_code == 0, done.output
    out = done.output
    assert "Conceding ends this game as a defeat." in out and "not done" in out
    assert "DEFEAT (conceded)" in out
    assert "Thoth market · NP bank" in out  # the end-of-game market, with its prices (KYR-END-04)
    assert "Game 1 is over and saved." in out
    assert "comment of game 1 saved" in out
    assert "Game 2 of 30: objectives" in out
    with KyrumStore(db, seal=local_seal()) as store:
        camp = store.open("ada")
        assert camp.state.scoreboard[0]["comment"] == "Ash everywhere"
        assert camp.state.scoreboard[0]["result"] == "defeat"
        assert camp.game_number == 2
    late = run(db, "comment", "too late", "-c", "ada")
    assert late.exit_code == 2 and "only possible between games" in late.output


def test_leaving_the_last_area_asks_first(db: Path) -> None:
    """assumed:KYR-AMB-14, spec §9.1: before leaving area 5 of journey 4 the player confirms it ends the game."""
    with KyrumStore(db, seal=local_seal()) as store:
        camp = store.create("ada", seed=1)
        camp.start_game()
        while camp.match is not None:
            view = camp.match.state.view(0)
            if view["journey"] == 4 and view["planet_deck_size"] == 0 and view["decision"] is None:
                break
            legal = [str(a) for a in camp.match.state.legal_actions() if a.verb != "concede"]
            camp.play("leave" if "leave" in legal else legal[0])
        assert camp.match is not None, "the game should reach the last area"
    before = actions(db)
    asked = run(db, "continue", input="leave\nno\nquit\n")
    assert "This ends the game (journey 4 is over)." in asked.output and "not done" in asked.output
    assert actions(db) == before
    left = run(db, "continue", input="leave\ny\nquit\n")
    assert "DEFEAT (journeys)" in left.output
    assert actions(db) == [*before, "leave"]


def test_between_games_market_and_buy(db: Path) -> None:
    """KYR-THOTH-01, KYR-THOTH-04: the market lists items and prices; a purchase needs the NP."""
    run(db, "new", "ada", "--seed", "3")
    early = run(db, "buy", "t1", "-c", "ada")
    assert early.exit_code == 2 and "opens at the end of a game" in early.output
    run(db, "continue", input="concede\ny\n" + "1\n" * 12 + "quit\n")
    market = run(db, "market", "ada")
    assert market.exit_code == 0 and "Auxiliary Tank" in market.output and "4 NP" in market.output
    poor = run(db, "buy", "T08", "-c", "ada")
    assert poor.exit_code == 2 and "Archive Key costs 10 NP" in poor.output


def test_partner_commands(db: Path) -> None:
    """KYR-CAMPAIGN-09: link, export and import codes; bad codes and solo campaigns are refused clearly."""
    run(db, "new", "solo", "--seed", "1")
    run(db, "new", "ada", "--partner", "--seed", "2")
    run(db, "new", "bob", "--partner", "--seed", "3")
    refused = run(db, "link", "ada", "solo")
    assert refused.exit_code == 2 and "created without a Black Hole partner" in refused.output
    linked = run(db, "link", "ada", "bob")
    assert linked.exit_code == 0 and "ada and bob are now Black Hole partners" in linked.output
    nothing = run(db, "export-code", "ada")
    assert nothing.exit_code == 2 and "no Black Hole message has been written yet" in nothing.output
    bad = run(db, "import-code", "KYR1-AAAAA-BBBBB", "-c", "ada")
    assert bad.exit_code == 2 and "checksum does not match" in bad.output
    solo = run(db, "partner", "solo")
    assert "no Black Hole partner" in solo.output
    shown = run(db, "partner", "ada")
    assert shown.exit_code == 0 and "Partner: bob" in shown.output


def test_questionnaire_command(db: Path) -> None:
    """KYR-CAMPAIGN-05, KYR-CAMPAIGN-06, KYR-CAMPAIGN-07, KYR-CAMPAIGN-08: refused before the last game; answered by
    piped input afterwards; scored."""
    run(db, "new", "ada", "--seed", "1")
    early = run(db, "questionnaire", "ada")
    assert early.exit_code == 2 and "opens after the last game" in early.output
    with sqlite3.connect(db) as conn:  # arrange: every game of the schedule played
        state = BOOK.state_of(conn.execute("SELECT state FROM campaigns").fetchone()[0])
        for row in state.scoreboard:
            row["result"], row["np"] = "defeat", 0
        state.next_game = 31
        conn.execute("UPDATE campaigns SET state = ?", (BOOK.state_text(state),))
    answers = [q["answer"] for q in PACK.questionnaire["questions"]]
    answers[0] = (answers[0] + 1) % 4  # one wrong: 45/50
    piped = "9\n" + "\n".join(str(a) for a in answers) + "\n"
    done = run(db, "questionnaire", "ada", input=piped)
    assert done.exit_code == 0, done.output
    assert "answer with a number from 0 to 3" in done.output
    assert "own 45 × 2 (no Black Hole partner) = 90/100 → Great Explorer" in done.output
    shown = run(db, "questionnaire", "ada")
    assert "90/100 → Great Explorer" in shown.output
    over = run(db, "continue", "ada", input="next\n")
    assert over.exit_code == 0 and "The campaign is complete." in over.output
    assert "Great Explorer" in run(db, "list").output


def test_questionnaire_with_answers_option_and_partner_score(db: Path) -> None:
    """KYR-CAMPAIGN-07, assumed:KYR-AMB-46: a partner campaign adds the partner's score, given by hand."""
    run(db, "new", "ada", "--partner", "--seed", "1")
    with sqlite3.connect(db) as conn:
        state = BOOK.state_of(conn.execute("SELECT state FROM campaigns").fetchone()[0])
        state.next_game = 31
        conn.execute("UPDATE campaigns SET state = ?", (BOOK.state_text(state),))
    answers = ",".join(str(q["answer"]) for q in PACK.questionnaire["questions"])
    waiting = run(db, "questionnaire", "ada", "--answers", answers)
    assert waiting.exit_code == 0 and "Answers saved: 50/50. Waiting for your partner's score" in waiting.output
    assert "KYR1-" in waiting.output
    done = run(db, "questionnaire", "ada", "--partner-score", "12")
    assert done.exit_code == 0 and "own 50 + partner 12 = 62/100 → Traveller" in done.output


def test_the_holotable_command_has_the_campaign_commands(db: Path) -> None:
    """The commands hang under ``holotable kyrum`` (spec §9.2)."""
    from holotable.cli import app

    made = CliRunner().invoke(app, ["kyrum", "new", "ada", "--seed", "2", "--database", str(db)])
    assert made.exit_code == 0, made.output
    played = CliRunner().invoke(app, ["kyrum", "continue", "--database", str(db)], input="1\nquit\n")
    assert played.exit_code == 0, played.output
    assert len(actions(db)) == 1
    assert "playing game 1" in CliRunner().invoke(app, ["kyrum", "list", "--database", str(db)]).output


def test_the_campaign_book_holds_no_seed_in_the_clear(db: Path) -> None:
    """Whoever knows a running campaign's seed can compute every deck of every game to come, so the
    book on disk holds the campaign's seed and each game's sealed with this user's key."""
    seed = 918273645501
    assert run(db, "new", "ada", "--seed", str(seed)).exit_code == 0
    assert run(db, "continue", "ada", input="quit\n").exit_code == 0
    with KyrumStore(db, seal=local_seal()) as store:
        camp = store.open("ada")
        assert camp.state.campaign_seed == seed and camp.match is not None
        game_seed = camp.match.seed
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in db.parent.glob("kyrum.sqlite3-*"))
    for secret in (seed, game_seed):
        assert str(secret).encode() not in raw
    with sqlite3.connect(db) as conn:
        state, = conn.execute("SELECT state FROM campaigns").fetchone()
        game_seed_column, = conn.execute("SELECT seed FROM games").fetchone()
    assert '"campaign_seed": "sealed1:' in state and game_seed_column.startswith("sealed1:")
    with pytest.raises(Exception, match="sealed with a key of this computer's user"):
        KyrumStore(db).open("ada")  # without the key the book says why it cannot be read
