"""The Kyrum campaign as plain, serialisable data (spec §4.3, KYR-CAMPAIGN): pure functions only.

A :class:`CampaignState` round-trips through JSON. :func:`start_game` starts the next scheduled game
from it (the engine game receives the campaign as its ``campaign`` parameter, so a saved match
replays exactly); :func:`fold_game` turns a finished game back into the campaign. Persistence
(SQLite) and the partner link are built on top of these by other modules.

>>> camp = new_campaign("kyrum-demo", seed=7)
>>> CampaignState.from_json(camp.to_json()) == camp, camp.next_game, len(camp.scoreboard) >= 30
(True, 1, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from holotable.engine.errors import DataError, IllegalActionError

from .pack import Item, Pack, load_pack

if TYPE_CHECKING:
    from holotable.engine import State

FORMAT_VERSION = 1


@dataclass
class CampaignState:
    pack_id: str
    campaign_seed: int = 0
    partner: dict[str, Any] = field(default_factory=lambda: {"enabled": False, "partner_name": None})
    next_game: int = 1
    scoreboard: list[dict[str, Any]] = field(default_factory=list)
    np_bank: int = 0
    items: dict[str, dict[str, int]] = field(default_factory=dict)
    narratives: list[dict[str, Any]] = field(default_factory=list)
    flags: dict[str, int] = field(default_factory=dict)
    scripts_seen: list[str] = field(default_factory=list)
    main_seen: list[str] = field(default_factory=list)
    glossary: list[str] = field(default_factory=list)
    journal: list[dict[str, Any]] = field(default_factory=list)
    partner_log: list[dict[str, Any]] = field(default_factory=list)
    questionnaire: dict[str, Any] | None = None
    format_version: int = FORMAT_VERSION

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, raw: Any) -> CampaignState:
        if not isinstance(raw, dict):
            raise DataError("campaign: must be a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(raw) - known)
        if unknown:
            raise DataError(f"campaign: unknown field(s) {', '.join(unknown)}")
        if "pack_id" not in raw:
            raise DataError("campaign: pack_id: required field is missing")
        if raw.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
            raise DataError(f"campaign: format_version: unsupported {raw.get('format_version')!r}")
        try:
            state = cls(**json.loads(json.dumps(raw)))
        except TypeError as exc:  # pragma: no cover - guarded by the key check above
            raise DataError(f"campaign: {exc}") from None
        for name in ("next_game", "np_bank", "campaign_seed"):
            value = getattr(state, name)
            if isinstance(value, bool) or not isinstance(value, int) or (name != "campaign_seed" and value < 0):
                raise DataError(f"campaign: {name}: must be a non-negative integer, got {value!r}")
        return state

    @classmethod
    def from_json(cls, text: str) -> CampaignState:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"campaign: not valid JSON: {exc}") from None
        return cls.from_dict(raw)


def new_campaign(pack: Pack | str, seed: int = 0, *, partner: bool = False,
                 partner_name: str | None = None) -> CampaignState:
    """A fresh campaign: the scoreboard lists every scheduled game (KYR-CAMPAIGN-01/03/09)."""
    p = load_pack(pack) if isinstance(pack, str) else pack
    rows = [{"game": g["game"], "objectives": list(g["objectives"]), "result": None, "np": None, "comment": "",
             "end_script": g.get("end_script")} for g in p.schedule["games"]]
    return CampaignState(pack_id=p.pack_id, campaign_seed=seed,
                         partner={"enabled": partner, "partner_name": partner_name}, scoreboard=rows)


def game_seed(campaign_seed: int, game: int) -> int:
    """The game PRNG seed of spec §4.4."""
    return int.from_bytes(hashlib.sha256(f"{campaign_seed}:{game}".encode()).digest()[:8], "big")


def start_game(campaign: CampaignState, pack: str = "kyrum-demo", game: int | None = None, *,
               record: bool = False, **options: Any) -> State[Any, Any]:
    """Start the next game of the campaign (KYR-SETUP-01, KYR-CAMPAIGN-02, KYR-END-05).

    Asking for any other game number (a finished one, or one further on) is refused.
    """
    from holotable.engine import registry

    number = campaign.next_game if game is None else game
    if number != campaign.next_game:
        raise IllegalActionError(
            f"game {number} cannot be started: the next game of this campaign is {campaign.next_game}",
            rule="KYR-CAMPAIGN-02")
    p = load_pack(pack)
    if number > p.schedule["length"]:
        raise IllegalActionError("the campaign is complete: every scheduled game has been played",
                                 rule="KYR-CAMPAIGN-02")
    kyrum = registry.load("kyrum")
    return kyrum.new_state(1, seed=game_seed(campaign.campaign_seed, number), record=record, pack=pack,
                           campaign=campaign.to_json(), **options)


def fold_game(campaign: CampaignState, state: State[Any, Any]) -> CampaignState:
    """The campaign after a finished game: everything persistent the game changed (KYR-CAMPAIGN-04)."""
    data = state.data
    if not data.finished:
        raise IllegalActionError("the game is not finished yet (end-of-game procedure pending)", rule="KYR-END-04")
    if data.game != campaign.next_game:
        raise IllegalActionError(f"this is game {data.game}, the campaign expects game {campaign.next_game}",
                                 rule="KYR-CAMPAIGN-02")
    folded = CampaignState.from_dict(json.loads(json.dumps(data.camp)))
    return folded


def set_comment(campaign: CampaignState, game: int, text: str) -> CampaignState:
    """The scoreboard's comment column (KYR-CAMPAIGN-03, KYR-AMB-45): editable until the next game starts."""
    if game != campaign.next_game - 1:
        raise IllegalActionError("only the last finished game's comment can be edited", rule="KYR-CAMPAIGN-03")
    out = CampaignState.from_dict(campaign.to_dict())
    next(r for r in out.scoreboard if r["game"] == game)["comment"] = text
    return out


def add_journal_note(campaign: CampaignState, text: str) -> CampaignState:
    """The free-text campaign journal standing in for the booklet's notes pages (KYR-SCRIPT-07)."""
    out = CampaignState.from_dict(campaign.to_dict())
    out.journal.append({"game": out.next_game, "text": text})
    return out


def tracking_list(campaign: CampaignState, pack: Pack) -> dict[int, dict[str, bool]]:
    """Per planet, which of its main scripts were read (KYR-CAMPAIGN-10)."""
    return {n: {c: c in campaign.main_seen for c in pl.main_codes()} for n, pl in sorted(pack.planets.items())}


def buy_item(campaign: CampaignState, pack: Pack, item_id: str) -> CampaignState:
    """A Thoth purchase outside a game's end procedure (KYR-THOTH-01/04): same limits as in the game."""
    item = pack.items[item_id]
    refusal = buy_refusal(campaign.items, campaign.np_bank, item)
    if refusal is not None:
        raise IllegalActionError(refusal, rule="KYR-THOTH-04")
    out = CampaignState.from_dict(campaign.to_dict())
    out.np_bank -= item.cost
    out.items.setdefault(item_id, {"owned": 0, "consumed": 0})["owned"] += 1
    return out


def buy_refusal(items: Mapping[str, Mapping[str, int]], bank: int, item: Item) -> str | None:
    """Why ``item`` cannot be bought with ``bank`` NP by a campaign owning ``items`` (KYR-THOTH-04), or
    ``None``: the one "can buy" of the campaign's market, its page, the terminal's table and the
    end-of-game market inside a game (KYR-THOTH-01)."""
    rec = items.get(item.id, {"owned": 0, "consumed": 0})
    if bank < item.cost:
        return f"{item.name} costs {item.cost} NP; the bank holds {bank}"
    if int(rec["owned"]) - int(rec["consumed"]) >= item.max_owned:
        return f"{item.name}: at most {item.max_owned} owned"
    return None


# ---------------------------------------------------------------------------------------------- questionnaire
def score_answers(pack: Pack, answers: dict[str, int]) -> int:
    """The player's own score out of ``max`` (KYR-CAMPAIGN-06, KYR-AMB-28): points of correct answers."""
    return sum(int(q["points"]) for q in pack.questionnaire["questions"] if answers.get(q["id"]) == q["answer"])


def shared_score(own: int, partner: int | None, top: int = 50) -> int:
    """Out of ``2 * top``: own + partner's with a Black Hole partner, else twice the own score
    (KYR-CAMPAIGN-07); ``top`` is the pack's questionnaire maximum (the rulebook's 50).

    >>> shared_score(31, None), shared_score(30, 29)
    (62, 59)
    """
    for v in (own, partner):
        if v is not None and not 0 <= v <= top:
            raise ValueError(f"a questionnaire score is 0..{top}, got {v}")
    return own * 2 if partner is None else own + partner


def campaign_status(score: int, thresholds: list[list[Any]]) -> str:
    """The rulebook's status for a shared score (KYR-CAMPAIGN-08): the first threshold reached."""
    for minimum, status in sorted(thresholds, key=lambda t: -int(t[0])):
        if score >= minimum:
            return str(status)
    return str(thresholds[-1][1])


def finish_questionnaire(campaign: CampaignState, pack: Pack, answers: dict[str, int],
                         partner_score: int | None = None) -> CampaignState:
    """Score the end-of-campaign questionnaire; only after the last scheduled game (KYR-CAMPAIGN-05)."""
    if campaign.next_game <= pack.schedule["length"]:
        raise IllegalActionError("the questionnaire opens only after the last scheduled game",
                                 rule="KYR-CAMPAIGN-05")
    if campaign.partner.get("enabled") and partner_score is None:
        raise IllegalActionError(f"a partner campaign needs the partner's score (0-{pack.questionnaire['max']})",
                                 rule="KYR-CAMPAIGN-07")
    if not campaign.partner.get("enabled"):
        partner_score = None
    own = score_answers(pack, answers)
    shared = shared_score(own, partner_score, int(pack.questionnaire["max"]))
    out = CampaignState.from_dict(campaign.to_dict())
    out.questionnaire = {"answers": dict(answers), "own_score": own, "partner_score": partner_score,
                         "shared_score": shared, "status": campaign_status(shared, pack.rules["status_thresholds"])}
    return out
