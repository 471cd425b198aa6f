"""The SQLite campaign store: resume anywhere, durable actions, corrupt rows, campaign carry-over.

KYR-CAMPAIGN-01, KYR-CAMPAIGN-02, KYR-CAMPAIGN-03, KYR-CAMPAIGN-04, KYR-CAMPAIGN-05, KYR-CAMPAIGN-10, KYR-END-04,
KYR-END-05, KYR-THOTH-01, KYR-THOTH-02, KYR-THOTH-03, KYR-THOTH-04, KYR-SETUP-01, KYR-SETUP-06, KYR-SETUP-07,
spec §4.3/§4.4, P-K-13, P-K-15, P-K-16, P-K-17.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kyr_store_helpers import choose, play_game, waiting_for

from holotable.engine import IllegalActionError, MalformedActionError
from holotable.games.kyrum.campaign import CampaignState, fold_game, new_campaign, start_game, tracking_list
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.store import KyrumStore, StoreError, default_database_path

PACK = load_pack("kyrum-demo")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "kyrum.sqlite3"


def count(db: Path, sql: str, *args: Any) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql, args).fetchone()[0])


def test_default_database_path_honours_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_database_path() == tmp_path / "xdg" / "holotable" / "kyrum.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_database_path() == Path.home() / ".local" / "share" / "holotable" / "kyrum.sqlite3"


def test_round_trip_equals_an_uninterrupted_run(db: Path) -> None:
    """Spec §4.4, P-K-13, KYR-CAMPAIGN-02: closing and reopening the database at any ply, even with a
    decision pending, continues with exactly the same state and future dice as never stopping."""
    rng = random.Random(11)
    reference = new_campaign(PACK, seed=42)
    ref_state = start_game(reference, "kyrum-demo")
    store = KyrumStore(db)
    camp = store.create("ada", seed=42)
    camp.start_game()
    assert camp.match is not None
    assert camp.match.state.fingerprint() == ref_state.fingerprint()
    games_done = 0
    pending_seen = 0
    for ply in range(1, 400):
        assert camp.match is not None
        action = choose(camp.match.state, rng)
        camp.play(action)
        ref_state.apply(action)
        if ref_state.is_terminal():
            reference = fold_game(reference, ref_state)
            games_done += 1
            assert camp.match is None and camp.state.to_json() == reference.to_json()
            ref_state = start_game(reference, "kyrum-demo")
            camp.start_game()
        if ply % 7 == 0:  # close everything and read it back from disk
            store.close()
            store = KyrumStore(db)
            camp = store.open("ada")
            assert camp.match is not None
            pending_seen += camp.match.state.data.decision is not None
        assert camp.match is not None and camp.match.state.fingerprint() == ref_state.fingerprint()
    store.close()
    assert games_done >= 2
    assert pending_seen >= 1  # at least one reload happened with a decision on the stack (spec §4.2)


def test_resume_mid_script_keeps_the_pending_decision(db: Path) -> None:
    """Spec §4.2: a save taken while a script offer or choice is pending reloads to the same decision."""
    rng = random.Random(3)
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=9)
        for _ in range(6):
            play_game(camp, rng, stop=waiting_for("offer"))
            if camp.match is not None:
                break
        assert camp.match is not None
        before = camp.match.state.view(0)
        assert before["decision"]["kind"] == "offer"
    with KyrumStore(db) as store:
        again = store.open("ada")
        assert again.match is not None
        assert again.match.state.view(0) == before
        again.play("read")  # the offered script is read where it was left
        assert again.match is None or again.match.state.view(0)["decision"] != before["decision"]


def test_every_action_is_committed_before_play_returns(db: Path) -> None:
    """Kill-safety: another connection sees each action as soon as ``play`` has returned."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=5)
        camp.start_game()
        rng = random.Random(1)
        for n in range(1, 6):
            assert camp.match is not None
            camp.play(choose(camp.match.state, rng))
            assert count(db, "SELECT COUNT(*) FROM actions") == n  # a second, independent connection
            with KyrumStore(db) as other:
                seen = other.open("ada")
                assert seen.match is not None and seen.match.actions == camp.match.actions


def test_a_killed_process_loses_no_accepted_action(db: Path) -> None:
    """Kill-safety: a process that dies without closing anything keeps every action ``play`` accepted."""
    script = f"""
import os, random, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from kyr_store_helpers import choose
from holotable.games.kyrum.store import KyrumStore
store = KyrumStore({str(db)!r})
camp = store.create("ada", seed=5)
camp.start_game()
rng = random.Random(1)
for _ in range(8):
    camp.play(choose(camp.match.state, rng))
print(camp.match.state.fingerprint(), len(camp.match.actions), flush=True)
os._exit(9)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    fingerprint, actions = done.stdout.split()
    with KyrumStore(db) as store:
        camp = store.open("ada")
        assert camp.match is not None
        assert len(camp.match.actions) == int(actions)
        assert camp.match.state.fingerprint() == fingerprint


def test_refused_actions_store_nothing(db: Path) -> None:
    """KYR-TLDP-01: an illegal or malformed action raises, and neither the game nor the database changes."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=5)
        camp.start_game()
        assert camp.match is not None
        before = camp.match.state.fingerprint()
        with pytest.raises(IllegalActionError):
            camp.play("validate")
        with pytest.raises(MalformedActionError):
            camp.play("fly to the moon")
        assert camp.match.state.fingerprint() == before
        assert count(db, "SELECT COUNT(*) FROM actions") == 0
        camp.play("leave")  # the campaign still works afterwards
        assert count(db, "SELECT COUNT(*) FROM actions") == 1


def test_a_second_session_cannot_write_over_the_first(db: Path) -> None:
    """Two sessions on one campaign: the stale one is refused, and its game is left as it was."""
    with KyrumStore(db) as one, KyrumStore(db) as two:
        first = one.create("ada", seed=5)
        first.start_game()
        second = two.open("ada")
        assert second.match is not None
        first.play("leave")
        before = second.match.state.fingerprint()
        with pytest.raises(StoreError, match="another session"):
            second.play("leave")
        assert second.match.state.fingerprint() == before and len(second.match.actions) == 0
        assert count(db, "SELECT COUNT(*) FROM actions") == 1
        assert len(second.reload().match.actions) == 1  # type: ignore[union-attr]


def corrupt(db: Path, sql: str, *args: Any) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, args)


def snapshot(db: Path) -> list[Any]:
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("campaigns", "games", "actions")]


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE actions SET action = 'explode 9' WHERE ply = 2", r"game 1: the stored game does not replay: action 2"),
    ("UPDATE actions SET action = 'validate' WHERE ply = 3", r"game 1: the stored game does not replay: action 3"),
    ("DELETE FROM actions WHERE ply = 2", r"game 1: stored action 2 is missing"),
    ("UPDATE campaigns SET state = '{\"pack_id\": 3' WHERE name = 'ada'", r"'ada': the saved campaign row is corrupt"),
    ("UPDATE campaigns SET state = '{\"next_game\": 1}' WHERE name = 'ada'", r"pack_id: required field"),
    ("UPDATE games SET config = 'not json'", r"game 1: the stored game config is not valid JSON"),
    ("UPDATE games SET seed = 'x12'", r"game 1: the stored game seed"),
])
def test_a_corrupt_row_is_a_clear_error_and_nothing_is_applied(db: Path, sql: str, message: str) -> None:
    """A damaged row names campaign, game and row; nothing of the campaign is loaded or rewritten, and the
    database's other campaigns still open."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=5)
        store.create("bob", seed=6)
        rng = random.Random(2)
        camp.start_game()
        for _ in range(4):
            assert camp.match is not None
            camp.play(choose(camp.match.state, rng))
    corrupt(db, sql)
    before = snapshot(db)
    with KyrumStore(db) as store:
        with pytest.raises(StoreError, match=message):
            store.open("ada")
        assert store.open("bob").state.next_game == 1
    assert snapshot(db) == before


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "kyrum.sqlite3"
    bad.write_bytes(b"this is a text file, not SQLite" * 50)
    with pytest.raises(StoreError, match="not a usable Kyrum campaign database"):
        KyrumStore(bad)
    assert bad.read_bytes().startswith(b"this is a text file")


def test_several_campaigns_by_name(db: Path) -> None:
    """KYR-CAMPAIGN-01: each campaign is its own schedule, found by name; names are unique."""
    with KyrumStore(db) as store:
        store.create("ada", seed=1)
        store.create("bob", seed=2, partner=True)
        with pytest.raises(StoreError, match="already exists"):
            store.create("ada")
        with pytest.raises(StoreError, match=r"no campaign named 'cyd'.*ada, bob"):
            store.open("cyd")
        with pytest.raises(StoreError, match="one line"):
            store.create("two\nlines")
        infos = {i.name: i for i in store.campaigns()}
        assert infos["ada"].length == 30 and infos["ada"].finished_games == 0 and not infos["ada"].partner
        assert infos["bob"].partner
        bob = store.open("bob")
        bob.start_game()
        assert store.latest() == "bob"
        assert {i.name: i.playing for i in store.campaigns()} == {"ada": None, "bob": 1}


def test_campaign_options_are_kept_and_checked(db: Path) -> None:
    """KYR-AMB-03 (config ``resort_after_reroll``) is a campaign option stored with the campaign."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=1, options={"resort_after_reroll": True})
        camp.start_game()
        assert camp.match is not None and camp.match.config["resort_after_reroll"] is True
        with pytest.raises(StoreError, match="bad campaign option"):
            store.create("bob", options={"no_such_option": 1})
        with pytest.raises(StoreError, match="set by the campaign itself"):
            store.create("cyd", options={"partner": True})


def test_games_are_played_in_order_and_never_again(db: Path) -> None:
    """KYR-SETUP-01, KYR-CAMPAIGN-02, KYR-END-05 (T-KYR-33): one running game at a time; a finished game
    is folded with its scoreboard row and the next game is always last finished + 1."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=4)
        camp.start_game()
        with pytest.raises(IllegalActionError, match="already being played"):
            camp.start_game()
        camp.play("concede")  # KYR-END-06: a defeat, then the end-of-game procedure
        rng = random.Random(0)
        play_game(camp, rng)  # end script choices and the market
        assert camp.match is None and camp.state.next_game == 2
        row = camp.state.scoreboard[0]
        assert (row["result"], row["np"], row["end_script"]) == ("defeat", 0, "A.70.01")
        assert count(db, "SELECT COUNT(*) FROM games WHERE status = 'finished'") == 1
        result = json.loads(store.conn.execute("SELECT result FROM games").fetchone()[0])
        assert result["reason"] == "conceded"
        match = camp.start_game()
        assert match.state.data.game == 2
        assert match.state.data.objectives == camp.state.scoreboard[1]["objectives"]
        idle = store.create("bob", seed=1)
        with pytest.raises(IllegalActionError, match="no game is being played"):
            idle.play("leave")


def test_comments_only_for_the_last_finished_game_before_the_next_starts(db: Path) -> None:
    """KYR-CAMPAIGN-03, KYR-AMB-45: the comment column is free text, editable until the next game starts."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=4)
        with pytest.raises(IllegalActionError, match="no game has been finished"):
            camp.set_comment("too early")
        play_game(camp, random.Random(5))
        camp.set_comment("lost in the ash plains")
        camp.set_comment("lost in the ash plains, again")
        assert store.open("ada").state.scoreboard[0]["comment"] == "lost in the ash plains, again"
        camp.start_game()
        with pytest.raises(IllegalActionError, match="only possible between games"):
            camp.set_comment("late")
        play_game(camp, random.Random(6))
        with pytest.raises(IllegalActionError, match="only the last finished game"):
            camp.set_comment("rewrite history", game=1)
        assert camp.state.scoreboard[0]["comment"] == "lost in the ash plains, again"


def give_np(db: Path, name: str, bank: int) -> None:
    """Arrange the NP bank of a stored campaign (a test precondition, like a scenario's ``arrange``)."""
    with sqlite3.connect(db) as conn:
        raw = json.loads(conn.execute("SELECT state FROM campaigns WHERE name = ?", (name,)).fetchone()[0])
        raw["np_bank"] = bank
        conn.execute("UPDATE campaigns SET state = ?, revision = revision + 1 WHERE name = ?",
                     (CampaignState.from_dict(raw).to_json(), name))


def test_thoth_market_between_games_and_items_in_later_games(db: Path) -> None:
    """KYR-THOTH-01, KYR-THOTH-02, KYR-THOTH-03, KYR-THOTH-04, KYR-SETUP-06: purchases between games cost NP from the
    bank, unspent NP stay, limits are enforced, and a permanent item changes the next game's set-up."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=4)
        with pytest.raises(IllegalActionError, match="opens at the end of a game"):
            camp.buy("T01")
        play_game(camp, random.Random(5))
    give_np(db, "ada", 9)
    with KyrumStore(db) as store:
        camp = store.open("ada")
        assert camp.buy("t1") == "T01"  # Auxiliary Tank, 4 NP, permanent: +2 fuel at set-up
        assert camp.state.np_bank == 5 and camp.state.items["T01"] == {"owned": 1, "consumed": 0}
        with pytest.raises(IllegalActionError, match="at most 1 owned"):
            camp.buy("Auxiliary Tank")
        with pytest.raises(IllegalActionError, match="costs 6 NP; the bank holds 5"):
            camp.buy("T05")
        with pytest.raises(StoreError, match="no Thoth item"):
            camp.buy("T99")
    with KyrumStore(db) as store:
        camp = store.open("ada")
        assert camp.state.np_bank == 5
        match = camp.start_game()
        base = int(PACK.rules["gauges"]["fuel"]["start"])
        assert match.state.data.gauges["fuel"] == base + 2
        with pytest.raises(IllegalActionError, match="only possible between games"):
            camp.buy("T03")


def test_journal_notes_written_during_a_game_join_the_journal_when_it_ends(db: Path) -> None:
    """KYR-CAMPAIGN-04: the journal is campaign data; a note written mid-game survives the game's fold."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=4)
        camp.add_note("before the first game")
        camp.start_game()
        camp.add_note("Rymios: ash everywhere")
        assert camp.notes_pending() == ["Rymios: ash everywhere"]
        play_game(store.open("ada"), random.Random(1))
        again = store.open("ada")
        texts = [(e["game"], e["text"]) for e in again.state.journal]
        assert (1, "before the first game") in texts and (1, "Rymios: ash everywhere") in texts
        assert again.notes_pending() == []


# ---------------------------------------------------------------------------------------------- a whole campaign
@pytest.fixture(scope="module")
def full_campaign(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A solo campaign of all 30 scheduled games played through the store, reopened every few actions."""
    db = tmp_path_factory.mktemp("kyrum") / "kyrum.sqlite3"
    rng = random.Random(2026)
    store = KyrumStore(db)
    camp = store.create("ada", seed=77)
    starts: list[dict[str, Any]] = []
    folds: list[CampaignState] = []
    actions = 0
    while not camp.complete:
        if camp.match is None:
            before = CampaignState.from_dict(camp.state.to_dict())
            camp.start_game()
            assert camp.match is not None
            data = camp.match.state.data
            cards = [*data.encounter_deck, *data.encounter_removed, *filter(None, [data.encounter_in_play])]
            starts.append({"before": before, "camp": json.loads(json.dumps(data.camp)), "encounters": cards})
        assert camp.match is not None
        camp.play(choose(camp.match.state, rng))
        actions += 1
        if camp.match is None:
            folds.append(CampaignState.from_dict(camp.state.to_dict()))
        if actions % 97 == 0:
            store.close()
            store = KyrumStore(db)
            camp = store.open("ada")
    store.close()
    return {"db": db, "starts": starts, "folds": folds, "actions": actions}


def test_full_campaign_of_30_games_through_the_store(full_campaign: dict[str, Any]) -> None:
    """KYR-CAMPAIGN-01, KYR-CAMPAIGN-02, KYR-CAMPAIGN-03, KYR-END-04, KYR-END-05, P-K-17: 30 games in schedule order,
    one finished scoreboard row per game with result and NP, and next game = finished + 1 after every game."""
    folds: list[CampaignState] = full_campaign["folds"]
    assert len(folds) == 30 == PACK.schedule["length"]
    for n, camp in enumerate(folds, start=1):
        assert camp.next_game == n + 1
        done = [r for r in camp.scoreboard if r["result"] is not None]
        assert [r["game"] for r in done] == list(range(1, n + 1))
        assert all(r["result"] in ("victory", "defeat") and r["np"] >= 0 for r in done)
    with KyrumStore(full_campaign["db"]) as store:
        camp = store.open("ada")
        assert camp.complete and camp.match is None
        assert camp.state.to_json() == folds[-1].to_json()
        assert [g for (g,) in store.conn.execute("SELECT game FROM games ORDER BY id")] == list(range(1, 31))
        with pytest.raises(IllegalActionError, match="campaign is complete"):
            camp.start_game()


def test_campaign_data_carries_over_between_games(full_campaign: dict[str, Any]) -> None:
    """KYR-CAMPAIGN-04, KYR-SETUP-04, KYR-SETUP-07, P-K-15, P-K-16: each game starts from exactly what the previous one
    left (narratives with their progress, flags, scripts seen, tracking list, NP bank, items); tracking list
    and scripts seen only grow; NP bank bookkeeping (KYR-NOTORIETY-06, P-K-12); without a partner the Black
    Hole card is out (9 encounters)."""
    starts, folds = full_campaign["starts"], full_campaign["folds"]
    assert len(starts) == 30
    for k, start in enumerate(starts):
        before: CampaignState = start["before"]
        if k:
            assert before.to_json() == folds[k - 1].to_json()
        camp = start["camp"]
        for key in ("narratives", "scripts_seen", "main_seen", "np_bank", "items", "glossary", "journal"):
            assert camp[key] == before.to_dict()[key], key
        assert {f: v for f, v in before.flags.items() if not f.startswith("game.")} == camp["flags"]
        assert len(start["encounters"]) == 9  # KYR-SETUP-04: no partner, no Black Hole card
        assert all(PACK.encounters[e].kind != "black_hole" for e in start["encounters"])
    for prev, nxt in itertools.pairwise(folds):
        assert set(prev.scripts_seen) <= set(nxt.scripts_seen)
        assert set(prev.main_seen) <= set(nxt.main_seen)
        spent = sum((rec["owned"] - prev.items.get(iid, {"owned": 0})["owned"]) * PACK.items[iid].cost
                    for iid, rec in nxt.items.items())
        row = nxt.scoreboard[nxt.next_game - 2]
        # P-K-12: bank after = bank before + the game's NP (+ end-script NP, KYR-AMB-25) - purchases
        assert nxt.np_bank - prev.np_bank + spent >= row["np"] and nxt.np_bank >= 0
    last = folds[-1]
    assert set(last.main_seen) <= set(PACK.main_codes())
    grid = tracking_list(last, PACK)
    assert sum(len(v) for v in grid.values()) == 115  # KYR-CAMPAIGN-10
    assert sum(sum(v.values()) for v in grid.values()) == len(last.main_seen) > 0
    narratives_seen = [c for c in folds if c.narratives]
    assert narratives_seen, "the run should find at least one narrative discovery"
    for prev, nxt in itertools.pairwise(folds):
        for nd in prev.narratives:
            later = [m for m in nxt.narratives if m["nd_id"] == nd["nd_id"]]
            assert later, "a narrative discovery never disappears"
            if nd["state"] == "done":
                assert any(m["state"] == "done" for m in later)


def test_questionnaire_after_the_last_game_solo_is_doubled(full_campaign: dict[str, Any], tmp_path: Path) -> None:
    """KYR-CAMPAIGN-05, KYR-CAMPAIGN-06, KYR-CAMPAIGN-07, KYR-CAMPAIGN-08 (T-KYR-32, spec §7.11 solo example): after
    game 30 the questionnaire is scored out of 50 and doubled without a partner; 7 correct answers → 35 → 70 →
    Great Traveller."""
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(Path(full_campaign["db"]).read_bytes())
    questions = PACK.questionnaire["questions"]
    answers = {q["id"]: q["answer"] if i < 7 else (q["answer"] + 1) % len(q["choices"])
               for i, q in enumerate(questions)}
    with KyrumStore(copy) as store:
        camp = store.open("ada")
        with pytest.raises(StoreError, match="no Black Hole partner"):
            camp.answer_questionnaire(answers, partner_score=40)
        with pytest.raises(StoreError, match="question Q10 needs an answer"):
            camp.answer_questionnaire({k: v for k, v in answers.items() if k != "Q10"})
        result = camp.answer_questionnaire(answers).questionnaire
        assert result == {"answers": answers, "own_score": 35, "partner_score": None, "shared_score": 70,
                          "status": "Great Traveller"}
        with pytest.raises(IllegalActionError, match="already been scored"):
            camp.answer_questionnaire(answers)
    with KyrumStore(copy) as store:
        assert store.open("ada").state.questionnaire == result
        assert {i.name: i.questionnaire for i in store.campaigns()} == {"ada": "Great Traveller"}


def test_questionnaire_is_never_shown_before_the_last_game(db: Path) -> None:
    """KYR-CAMPAIGN-05: the questionnaire opens only after the last scheduled game."""
    with KyrumStore(db) as store:
        camp = store.create("ada", seed=1)
        play_game(camp, random.Random(1))
        with pytest.raises(IllegalActionError, match="opens only after game 30"):
            camp.answer_questionnaire({q["id"]: 0 for q in PACK.questionnaire["questions"]})
        assert store.open("ada").answers is None
