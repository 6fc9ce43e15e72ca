"""Realistic facts files for the benchmarks: the shape an HRIS export and a year's records take.

One generator for both kinds, deterministic for a seed (the same seed gives byte-identical files):

- RRP participants (``rrp-plan-year``): a name and a two-line address; salary, bonus and
  performance-based Deferral Elections, some superseded by a later form for the same year, some
  revoked (in time or late), a few not in effect (made after the deadline, or for an earlier
  year); two beneficiaries (a primary and a contingent, or two primaries at 50%) and an
  investment allocation over the plan's menu each; pay periods for some, a termination and its
  payment for a few.
- Directors (``director-rsu-grant``): Exhibit I elections of each payment route, some superseded,
  and settlements (separation, death, delivery) for a few.

Written as JSON, as block-style YAML (dates plain, as a person writes them) and as the roster
CSV shape (``participants_csv`` beside a small YAML file). ``warn_each`` gives every participant
a late revocation (a warning), for the text report's cost at scale.

Run directly to write files: ``python bench/realistic.py --participants 10000 --out /tmp/x``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

FUNDS = ["Stable Value Fund", "Bond Index Fund", "S&P 500 Index Fund", "International Equity Fund"]
FIRST = "Avery Jordan Morgan Casey Riley Quinn Taylor Drew Reese Cameron Harper Rowan Emerson "
FIRST += "Finley Parker Jesse Robin Sam Dana Alex Jamie Kendall Logan Skyler Hayden Peyton Lane"
LAST = "Lee Alvarez Okafor Sato Whitfield Delgado Novak Ferreira Iyer Kowalski Mbeki Lindqvist "
LAST += "Park Haddad Moreau Nakamura Revere Tate Ashby Whitlock Ortiz Brooks Ellis García O'Brien"
STREETS = ["Monument Avenue", "Hull Street", "Cary Street Road", "Oak Lane", "Broad Street"]
TOWNS = ["Richmond, VA 23220", "Norfolk, VA 23510", "Glen Allen, VA 23059", "Atlanta, GA 30309"]
PLAN_YEAR = 2026


def _day(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange((end - start).days + 1))


def _name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST.split())} {rng.choice(LAST.split())}"


def _address(rng: random.Random) -> list[str]:
    return [f"{rng.randrange(1, 9000)} {rng.choice(STREETS)}", rng.choice(TOWNS)]


def _allocation(rng: random.Random) -> dict[str, int]:
    funds = rng.sample(FUNDS, rng.randrange(1, len(FUNDS) + 1))
    shares = {fund: 100 // len(funds) for fund in funds}
    shares[funds[0]] += 100 - sum(shares.values())
    return shares


def _beneficiaries(rng: random.Random, surname: str) -> list[dict[str, Any]]:
    first, second = rng.sample(FIRST.split(), 2)
    if rng.random() < 0.7:
        return [
            {"name": f"{first} {surname}", "relationship": "spouse", "percent": 100},
            {
                "name": f"{second} {surname}",
                "relationship": "child",
                "percent": 100,
                "contingent": True,
            },
        ]
    return [
        {"name": f"{first} {surname}", "relationship": "child", "percent": 50},
        {"name": f"{second} {surname}", "relationship": "child", "percent": 50},
    ]


def _elections(rng: random.Random, index: int, warn: bool) -> list[dict[str, Any]]:
    """Elections for the Plan Year: mostly timely; some superseded, revoked, late or old."""
    window = (date(2025, 11, 1), date(2025, 12, 31))  # the prior-year route (Plan 2.03(b))
    made = _day(rng, *window)
    elections: list[dict[str, Any]] = []
    roll = rng.random()
    if roll < 0.10:  # superseded: an earlier form for the same year, then the one that governs
        first = _day(rng, window[0], made)
        elections.append({"kind": "salary", "plan_year": PLAN_YEAR, "percent": 3, "made_on": first})
    elif roll < 0.15:  # revoked in time: a 2025 election that stops before 2026
        elections.append(
            {
                "kind": "salary",
                "plan_year": PLAN_YEAR - 1,
                "percent": 8,
                "made_on": date(2024, 12, 5),
                "revoked_on": date(2025, 11, 10),
            }
        )
    elif roll < 0.17:  # an earlier year's election, rolled over
        elections.append(
            {
                "kind": "bonus",
                "plan_year": PLAN_YEAR - 1,
                "percent": 15,
                "made_on": date(2024, 12, 9),
            }
        )
    if warn:  # revoked late: stays in force for 2026 (RRP-REVOCATION-LATE, a warning)
        elections.append(
            {
                "kind": "bonus",
                "plan_year": PLAN_YEAR - 1,
                "percent": 7,
                "made_on": date(2024, 12, 9),
                "revoked_on": date(2026, 1, 12),
            }
        )
    salary_made = date(2026, 1, 5) if index % 200 == 7 else made  # a few late: not in effect
    elections.append(
        {
            "kind": "salary",
            "plan_year": PLAN_YEAR,
            "percent": rng.randrange(2, 31),
            "made_on": salary_made,
        }
    )
    if rng.random() < 0.4:
        elections.append(
            {
                "kind": "bonus",
                "plan_year": PLAN_YEAR,
                "percent": rng.choice([10, 20, 25, 50]),
                "made_on": made,
            }
        )
    if rng.random() < 0.05:
        elections.append(
            {
                "kind": "performance_based",
                "plan_year": PLAN_YEAR,
                "percent": 20,
                "made_on": _day(rng, date(2026, 3, 1), date(2026, 6, 30)),
                "performance_period": {
                    "start": date(2026, 1, 1),
                    "end": date(2026, 12, 31),
                    "criteria_established_on": date(2026, 2, 15),
                },
            }
        )
    return elections


def _pay_periods(compensation: int, bonus: int) -> list[dict[str, Any]]:
    """Twelve monthly payrolls adding up to the year's pay, the bonus paid in December."""
    monthly = (compensation - bonus) // 12
    december = compensation - 11 * monthly
    periods = [
        {"paid_on": date(PLAN_YEAR, month, 28), "compensation": f"{monthly}.00"}
        for month in range(1, 12)
    ]
    december_pay: dict[str, Any] = {"paid_on": date(PLAN_YEAR, 12, 18)}
    december_pay["compensation"] = f"{december}.00"
    if bonus:
        december_pay["bonus"] = f"{bonus}.00"
    return [*periods, december_pay]


def participant(rng: random.Random, index: int, warn: bool = False) -> dict[str, Any]:
    """One participant as an HRIS export and the year's records give them."""
    name = _name(rng)
    compensation = rng.randrange(350, 1200) * 1_000
    person: dict[str, Any] = {
        "id": f"e{index:05d}",
        "name": name,
        "address": _address(rng),
        "eligible_employee": rng.random() > 0.02,
        "compensation": str(compensation),
        "hired_on": _day(rng, date(2000, 1, 1), date(2024, 12, 31)),
    }
    if rng.random() < 0.4:
        person["bonus_compensation"] = str(compensation // rng.choice([4, 5, 8]))
    if rng.random() < 0.05:
        person["key_employee_on"] = [date(2025, 12, 31)]
    person["beneficiaries"] = _beneficiaries(rng, name.split()[-1])
    person["investments"] = _allocation(rng)
    if person["eligible_employee"]:
        person["elections"] = _elections(rng, index, warn)
    if rng.random() < 0.05:
        person["pay_periods"] = _pay_periods(compensation, int(person.get("bonus_compensation", 0)))
    if rng.random() < 0.02 and "key_employee_on" not in person:
        left = _day(rng, date(2026, 2, 1), date(2026, 5, 31))
        person["termination"] = {"on": left, "reason": "other", "age": rng.randrange(40, 64)}
        paid = left + timedelta(days=rng.randrange(10, 55))
        person["payments"] = [
            {"on": paid, "amount": f"{compensation // 4}.00", "to": "participant"}
        ]
    return person


def rrp_facts(count: int, seed: int = 2026, warn_each: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "kind": "rrp-plan-year",
        "company": {"name": "CarMax, Inc.", "publicly_traded": True},
        "plan": {
            "name": "CarMax, Inc. Retirement Restoration Plan",
            "investment_options": FUNDS,
            "key_employees_determined_on": [date(2025, 12, 31)],
        },
        "plan_year": PLAN_YEAR,
        "retirement_contribution_percent": "4",
        "participants": [participant(rng, i, warn_each) for i in range(count)],
    }


def director(rng: random.Random, index: int) -> dict[str, Any]:
    name = _name(rng)
    person: dict[str, Any] = {
        "id": f"d{index:05d}",
        "name": name,
        "address": _address(rng),
        "units": rng.choice([2450, 2450, 2450, 1225]),
    }
    elections = []
    roll = rng.random()
    if roll < 0.15:  # superseded by a later form
        elections.append(
            {
                "grant_id": "2026-annual",
                "filed_on": date(2026, 5, 4),
                "percent": 100,
                "pay_on": "separation",
            }
        )
    if roll < 0.8:
        route = rng.choice(["separation", "date", "earlier_of_separation_or_date"])
        election = {
            "grant_id": "2026-annual",
            "filed_on": _day(rng, date(2026, 5, 5), date(2026, 6, 20)),
            "percent": 100,
            "pay_on": route,
        }
        if route != "separation":
            election["pay_date"] = date(2029 + rng.randrange(4), 7, 1)
        elections.append(election)
    person["elections"] = elections
    if elections and elections[-1]["pay_on"] == "separation" and rng.random() < 0.1:
        left = _day(rng, date(2028, 1, 1), date(2030, 12, 31))  # paid at Separation from Service
        person["settlement"] = {"separation_on": left, "delivered_on": left + timedelta(days=20)}
    return person


def _sample_approvals(sample: str) -> list[dict[str, Any]]:
    """Counsel's approvals of the drafted clauses, as the sample of the kind records them."""
    from docgen.load.yaml_facts import read_yaml  # YAML 1.2: PyYAML would read `on:` as True

    text = (Path(__file__).resolve().parent.parent / "samples" / sample).read_text("utf-8")
    return read_yaml(text, sample)[0]["clause_approvals"]


def director_facts(count: int, seed: int = 2026) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "kind": "director-rsu-grant",
        "company": {
            "name": "CarMax, Inc.",
            "secretary_phone": "(804) 747-0422",
            "governing_law": "Commonwealth of Virginia",
            "publicly_traded": True,
        },
        "stock_plan": "CarMax, Inc. 2002 Stock Incentive Plan, as amended and restated",
        "form_10k_fiscal_year": 2026,
        "grant": {
            "id": "2026-annual",
            "grant_date": date(2026, 6, 23),
            "notice_date": date(2026, 6, 23),
            "election_deadline": date(2026, 6, 23),
            "fair_market_value": "45.10",
            "vesting": {"anniversary": 1, "accelerate_on": ["death", "disability"]},
            "default_payment_anniversary": 1,
        },
        "clause_approvals": _sample_approvals("director-grant-2026.yaml"),
        "directors": [director(rng, i) for i in range(count)],
    }


def _plain(value: Any) -> Any:
    """Dates as ISO text, for JSON and CSV."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


def write_json(facts: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(_plain(facts), indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def write_yaml(facts: dict[str, Any], path: Path) -> Path:
    """Block-style YAML, dates plain (2026-06-23), the way the samples are written."""
    import yaml

    class Plain(yaml.CSafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True  # a person writes each date out, not &id001 and *id001

    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(facts, handle, Dumper=Plain, sort_keys=False, allow_unicode=True)
    return path


def write_roster(facts: dict[str, Any], folder: Path, stem: str) -> Path:
    """The roster-CSV shape: the participants' roster columns in a CSV, the rest in YAML."""
    from docgen.kinds.rrp.roster import ROSTER_COLUMNS

    csv_path = folder / f"{stem}.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ROSTER_COLUMNS))
        writer.writeheader()
        for person in _plain(facts["participants"]):
            row = {key: person.get(key, "") for key in ROSTER_COLUMNS}
            row["address"] = "\n".join(person["address"])
            row["eligible_employee"] = "yes" if person["eligible_employee"] else "no"
            row["key_employee_on"] = ";".join(person.get("key_employee_on", []))
            for election in person.get("elections", []):
                if election["plan_year"] == PLAN_YEAR and election["kind"] in ("salary", "bonus"):
                    row[f"{election['kind']}_percent"] = election["percent"]
                    row[f"{election['kind']}_made_on"] = election["made_on"]
            writer.writerow(row)
    head = {key: value for key, value in facts.items() if key != "participants"}
    head["participants_csv"] = csv_path.name
    return write_yaml(head, folder / f"{stem}-roster.yaml")


def write_hris(facts: dict[str, Any], folder: Path, stem: str) -> Path:
    """The HRIS shape (samples/rrp-2026-hris.yaml): the participants in a roster CSV and every
    form on record in three more, one row per election, per Beneficiary and per fund; the Plan's
    terms in a small YAML file that names the four. What a CSV cannot hold (pay periods, a
    termination and its payments) is left out, as an HRIS export leaves it."""
    from docgen.kinds.rrp.roster import ROSTER_COLUMNS

    people = _plain(facts["participants"])
    names = {
        "participants_csv": f"{stem}-participants.csv",
        "elections_csv": f"{stem}-elections.csv",
        "beneficiaries_csv": f"{stem}-beneficiaries.csv",
        "allocations_csv": f"{stem}-allocations.csv",
    }
    election_columns = (
        "participant_id plan_year kind percent made_on performance_start performance_end "
        "criteria_established_on revoked_on"
    ).split()

    def write(field: str, columns: list[str], rows: list[dict[str, Any]]) -> None:
        with (folder / names[field]).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)

    roster, elections, beneficiaries, allocations = [], [], [], []
    for person in people:
        row = {key: person.get(key, "") for key in ROSTER_COLUMNS}
        row["address"] = "\n".join(person["address"])
        row["eligible_employee"] = "yes" if person["eligible_employee"] else "no"
        row["key_employee_on"] = ";".join(person.get("key_employee_on", []))
        roster.append(row)
        for election in person.get("elections", []):
            period = election.get("performance_period", {})
            elections.append(
                {
                    "participant_id": person["id"],
                    "plan_year": election["plan_year"],
                    "kind": election["kind"],
                    "percent": election["percent"],
                    "made_on": election["made_on"],
                    "performance_start": period.get("start", ""),
                    "performance_end": period.get("end", ""),
                    "criteria_established_on": period.get("criteria_established_on", ""),
                    "revoked_on": election.get("revoked_on", ""),
                }
            )
        for beneficiary in person.get("beneficiaries", []):
            beneficiaries.append(
                {
                    "participant_id": person["id"],
                    **beneficiary,
                    "contingent": "yes" if beneficiary.get("contingent") else "",
                }
            )
        for fund, percent in person.get("investments", {}).items():
            allocations.append({"participant_id": person["id"], "fund": fund, "percent": percent})
    write("participants_csv", list(ROSTER_COLUMNS), roster)
    write("elections_csv", election_columns, elections)
    beneficiary_columns = "participant_id name relationship percent contingent".split()
    write("beneficiaries_csv", beneficiary_columns, beneficiaries)
    write("allocations_csv", ["participant_id", "fund", "percent"], allocations)
    head = {key: value for key, value in facts.items() if key != "participants"}
    head.update(names)
    return write_yaml(head, folder / f"{stem}-hris.yaml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--directors", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--warn-each", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    stem = f"rrp-{options.participants}"
    facts = rrp_facts(options.participants, options.seed, options.warn_each)
    for path in (
        write_json(facts, options.out / f"{stem}.json"),
        write_yaml(facts, options.out / f"{stem}.yaml"),
        write_roster(facts, options.out, stem),
        write_hris(facts, options.out, stem),
    ):
        print(path)
    if options.directors:
        board = director_facts(options.directors, options.seed)
        print(write_yaml(board, options.out / f"directors-{options.directors}.yaml"))


if __name__ == "__main__":
    main()
