"""The director RSU rules against a second, plain reading of the catalogue (DESIGN.md, "Director RSU
grant", DESIGN.md, "The Specified Date", A2 and DESIGN.md, "Stages and issued folders"), over
generated grants whose dates sit on every boundary.

The reading below is written from the catalogue's words, not from checks/rsu*.py or the grant's
terms: it shares no code with them, down to its own month arithmetic. Each generated cycle is
checked by docgen and by this reading, and the two must give the same findings (rule, subject,
fact path, severity), each as often.
"""

from __future__ import annotations

import calendar
import copy
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.checker.cases import bases, deep_merge
from docgen.checker.runner import run_checks
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.load import LoadedFacts, SourceMap

GRANT_ID = "2026-annual"
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- the catalogue, read plainly


def _last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def months_on(day: date, months: int) -> date:
    """ "N months" (DESIGN.md): calendar months, clamped to the end of the month."""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month + 1, min(day.day, _last_day(year, month + 1)))


def months_on_month_end(day: date, months: int) -> date:
    """The other reading of "N months" from a month-end day: the end of the target month."""
    moved = months_on(day, months)
    if day.day == _last_day(day.year, day.month):
        return moved.replace(day=_last_day(moved.year, moved.month))
    return moved


def specified(grant: dict) -> date:
    """DESIGN.md, "The Specified Date": the scheduled Vesting Date, the Specified Date (the vesting
    anniversary) or the annual meeting if one is set and earlier."""
    on = months_on(grant["grant_date"], 12 * grant["vesting"]["anniversary"])
    meeting = grant["vesting"].get("annual_meeting_date")
    return meeting if meeting is not None and meeting < on else on


def route_409a(grant: dict, director: dict, filed: date) -> str | None:
    """RSU-ELECTION-409A-TIMING for one form: None (timely on some route), "warning" (route (b)
    passes on one reading of "12 months" only) or "error"."""
    grant_date = grant["grant_date"]
    if filed <= date(grant_date.year - 1, 12, 31):  # (a)
        return None
    first = director.get("first_eligible_on")
    if first is not None and filed <= first + timedelta(days=30):  # (c)
        return None
    vests = specified(grant)
    if vests < months_on(grant_date, 12):  # (b) closed: the units can vest within 12 months
        return "error"
    if filed > grant_date + timedelta(days=30):
        return "error"
    readings = (months_on(vests, -12), months_on_month_end(vests, -12))
    if filed <= min(readings):
        return None
    return "warning" if filed <= max(readings) else "error"


def governing_election(grant: dict, forms: list[tuple[int, dict]]) -> dict | None:
    """DESIGN.md, "Which Exhibit I governs": the last form (in filing order) filed before the
    deadline; once one governs, a form filed on or after the Date of Grant changes nothing
    (irrevocable as of that date)."""
    governing = None
    for _, form in forms:
        if form["filed_on"] >= grant["election_deadline"]:
            continue
        if governing is not None and form["filed_on"] >= grant["grant_date"]:
            continue
        governing = form
    return governing


def payment_event(grant: dict, director: dict, election: dict | None) -> tuple[date, str] | None:
    """Notice C.1 (no election) or F.1 (with one): the earliest payment event that has occurred.
    On a tie, separation yields to the other event (a payment due that day anyway is not made on
    account of the separation), so no six-month delay follows from it."""
    settled = director.get("settlement") or {}
    events = [
        (settled.get(key), name)
        for key, name in (
            ("death_on", "death"),
            ("disability_on", "disability"),
            ("change_in_control_on", "change in control"),
        )
    ]
    if election is None:
        default = months_on(grant["grant_date"], 12 * grant["default_payment_anniversary"])
        events.append((default, "default"))
    else:
        if election["pay_on"] != "date":
            events.append((settled.get("separation_on"), "separation"))
        if election["pay_on"] != "separation":
            events.append((election["pay_date"], "elected date"))
    events = [(day, name) for day, name in events if day is not None]
    if not events:
        return None
    first = min(day for day, _ in events)
    names = {name for day, name in events if day == first}
    return first, ("separation" if names == {"separation"} else "other")


def fixed_date(grant: dict, director: dict, election: dict | None) -> date | None:
    """The elected date, when it is the Payment Date: earliest of the events, tied at most with
    the separation (a payment due that day anyway is not made on account of the separation)."""
    if election is None or election["pay_on"] == "separation":
        return None
    settled = director.get("settlement") or {}
    others = [settled.get(key) for key in ("death_on", "disability_on", "change_in_control_on")]
    elected = election["pay_date"]
    if any(day is not None and day <= elected for day in others):
        return None
    separated = settled.get("separation_on")
    if election["pay_on"] != "date" and separated is not None and separated < elected:
        return None
    return elected


def only_route_b(grant: dict, director: dict, filed: date) -> bool:
    """Timely by route (b) alone: not (a), December 31 before the grant year; not (c)."""
    if filed <= date(grant["grant_date"].year - 1, 12, 31):
        return False
    first = director.get("first_eligible_on")
    return not (first is not None and filed <= first + timedelta(days=30))


def vested_early(grant: dict, settled: dict) -> date | None:
    """The Section B event that vested the units before the Vesting Date, on or before service
    ended; None if none did."""
    vests = specified(grant)
    ends = [settled.get(key) for key in ("separation_on", "death_on")]
    ended = min((day for day in ends if day is not None), default=None)
    events = [settled.get("death_on"), settled.get("disability_on")]
    if settled.get("change_in_control_is_409a_event") in (None, True):
        events.append(settled.get("change_in_control_on"))
    early = [
        day for day in events if day is not None and day < vests and (ended is None or day <= ended)
    ]
    return min(early, default=None)


def forfeited(grant: dict, settled: dict) -> bool:
    """Notice A: service (ended by separation or death) ending before the Vesting Date, with no
    Section B event on or before its end and before the Vesting Date, forfeits the units."""
    vests = specified(grant)
    ends = [settled.get(key) for key in ("separation_on", "death_on")]
    ended = min((day for day in ends if day is not None), default=None)
    if ended is None or ended >= vests:
        return False
    accelerate = grant["vesting"].get("accelerate_on", ["death", "disability", "change_of_control"])
    events = []
    if "death" in accelerate:
        events.append(settled.get("death_on"))
    if "disability" in accelerate:
        events.append(settled.get("disability_on"))
    if "change_of_control" in accelerate and settled.get("change_in_control_is_409a_event") in (
        None,
        True,
    ):
        events.append(settled.get("change_in_control_on"))
    return not any(day is not None and day < vests and day <= ended for day in events)


def expected_findings(data: dict, as_of: date, stage: str) -> Counter:
    grant = data["grant"]
    found: Counter = Counter()

    def add(rule: str, subject: str, path: str, severity: str = "error") -> None:
        found[(rule, subject, path, severity)] += 1

    if grant["election_deadline"] > grant["grant_date"]:
        add("RSU-DEADLINE-AFTER-GRANT", GRANT_ID, "grant.election_deadline")
    vests = specified(grant)
    if vests < months_on(grant["grant_date"], 12):
        add("RSU-VESTING-UNDER-12-MONTHS", GRANT_ID, "grant.vesting.annual_meeting_date", "warning")
    if grant["default_payment_anniversary"] < grant["vesting"]["anniversary"]:
        add("RSU-DEFAULT-PAYMENT-BEFORE-VESTING", GRANT_ID, "grant.default_payment_anniversary")
    if stage == "elections" and as_of >= grant["election_deadline"]:
        add("RSU-FORM-ISSUED-AFTER-DEADLINE", GRANT_ID, "grant.election_deadline")
    if stage == "grant" and as_of < grant["election_deadline"]:
        add("RSU-GRANT-PACKET-BEFORE-DEADLINE", GRANT_ID, "grant.election_deadline")

    for d, director in enumerate(data["directors"]):
        who = director["id"]
        forms: list[tuple[int, dict]] = []
        for e, form in enumerate(director["elections"]):
            at = f"directors[{d}].elections[{e}]"
            # A void form draws its own rule and no other (DESIGN.md, "Which Exhibit I governs").
            if form["grant_id"] != GRANT_ID:
                add("RSU-ELECTION-OTHER-GRANT", who, f"{at}.grant_id")
            elif director.get("employee", False):
                add("RSU-ELECTION-EMPLOYEE-DIRECTOR", who, at)
            else:
                forms.append((e, form))
        forms.sort(key=lambda item: (item[1]["filed_on"], item[0]))
        governing = None
        took_over: list[int] = []  # the forms that governed in turn; the last governs
        for e, form in forms:
            at = f"directors[{d}].elections[{e}]"
            filed = form["filed_on"]
            if filed >= grant["election_deadline"]:
                add("RSU-ELECTION-LATE", who, f"{at}.filed_on")
            if filed > as_of:
                add("RSU-ELECTION-FUTURE", who, f"{at}.filed_on")
            if governing is not None and filed >= grant["grant_date"]:
                add("RSU-ELECTION-AFTER-IRREVOCABLE", who, f"{at}.filed_on")
            elif filed < grant["election_deadline"]:
                governing = form
                took_over.append(e)
        assert governing is governing_election(grant, forms)
        # A15: the content rules judge the form that governs (an error, or the rule's own
        # severity); a form it replaced draws info; a late form's content is moot.
        for e, form in forms:
            if e not in took_over:
                continue
            at = f"directors[{d}].elections[{e}]"
            replaced = e != took_over[-1]
            if Decimal(str(form["percent"])) != 100:
                add("RSU-ELECTION-PARTIAL", who, f"{at}.percent", "info" if replaced else "error")
            if form.get("pay_date") is not None and form["pay_date"] < vests:
                add(
                    "RSU-PAY-DATE-BEFORE-VESTING",
                    who,
                    f"{at}.pay_date",
                    "info" if replaced else "error",
                )
            timing = route_409a(grant, director, form["filed_on"])
            if timing is not None:
                add(
                    "RSU-ELECTION-409A-TIMING",
                    who,
                    f"{at}.filed_on",
                    "info" if replaced else timing,
                )
            elif not replaced and only_route_b(grant, director, form["filed_on"]):
                early = vested_early(grant, director.get("settlement") or {})
                if early is not None and early < months_on(grant["grant_date"], 12):
                    # Treas. Reg. 1.409A-2(a)(5): a route (b) election and vesting on death,
                    # disability or a change in control event within the 12 months: a warning.
                    add("RSU-ELECTION-409A-TIMING", who, f"{at}.filed_on", "warning")

        settled = director.get("settlement") or {}
        if director.get("specified_employee", False) and not director.get("employee", False):
            # A specified employee is a key employee (Code 416(i)), an employee.
            add(
                "RSU-SPECIFIED-EMPLOYEE-NOT-EMPLOYEE",
                who,
                f"directors[{d}].specified_employee",
                "warning",
            )
        separated = settled.get("separation_on")
        fixed = fixed_date(grant, director, governing)
        if director.get("specified_employee", False) and separated and fixed is not None:
            # Notice F.2 may delay "the date you elected in Section III": a warning while the
            # date falls less than six months after separation (or before an earlier death).
            delayed = months_on(separated, 6)
            if settled.get("death_on") is not None:
                delayed = min(delayed, settled["death_on"])
            if separated <= fixed < delayed:
                add(
                    "RSU-SPECIFIED-EMPLOYEE-DELAY",
                    who,
                    f"directors[{d}].settlement.separation_on",
                    "warning",
                )
        if settled.get("change_in_control_on") and (
            settled.get("change_in_control_is_409a_event") is None
        ):
            # Exhibit I (iii): a payment event only if also a 409A change in control event;
            # not recorded, taken as one, with a warning.
            add(
                "RSU-DELIVERY-WINDOW",
                who,
                f"directors[{d}].settlement.change_in_control_on",
                "warning",
            )
        delivered = settled.get("delivered_on")
        if delivered is None:
            continue
        path = f"directors[{d}].settlement.delivered_on"
        if forfeited(grant, settled):
            add("RSU-FORFEITED-UNITS-DELIVERED", who, path)
            continue
        event = payment_event(grant, director, governing)
        if (
            event is not None
            and event[1] == "separation"
            and director.get("specified_employee", False)
        ):
            # Notice F.2: six months after the separation, or death if earlier.
            delayed = months_on(event[0], 6)
            if settled.get("death_on") is not None:
                delayed = min(delayed, settled["death_on"])
            if delivered < delayed:
                add("RSU-SPECIFIED-EMPLOYEE-DELAY", who, path)
                continue
            event = (delayed, "delayed")
        # Notice C, F.1: within 60 days of the Payment Date, not before it.
        if event is None or not event[0] <= delivered <= event[0] + timedelta(days=60):
            add("RSU-DELIVERY-WINDOW", who, path)
    return found


# ----------------------------------------------------------- grants with dates on the edges

ANCHORS = [
    date(2026, 6, 23),
    date(2026, 8, 31),
    date(2027, 2, 28),
    date(2028, 2, 29),
    date(2027, 12, 31),
    date(2027, 1, 1),
    date(2029, 3, 31),
    date(2026, 1, 31),
]
EDGE = st.sampled_from([-1, 0, 1])


def near(draw, day: date, *offsets: int) -> date:
    """``day`` moved by one of ``offsets`` (default: a day either side, or none)."""
    return day + timedelta(days=draw(st.sampled_from(offsets or (-1, 0, 1))))


@st.composite
def grants(draw, deadline_before=(0, 0, 0, 1, 21, 35, -1, -5)) -> dict:
    grant_date = near(draw, draw(st.sampled_from(ANCHORS)))
    deadline = grant_date - timedelta(days=draw(st.sampled_from(deadline_before)))
    anniversary = draw(st.integers(1, 3))
    twelve_months = months_on(grant_date, 12)
    meeting = draw(
        st.none()
        | st.just(near(draw, twelve_months, -2, -1, 0, 1, 2))
        | st.just(grant_date + timedelta(days=draw(st.integers(1, 800))))
    )
    return {
        "id": GRANT_ID,
        "grant_date": grant_date,
        "notice_date": grant_date,
        "election_deadline": deadline,
        "fair_market_value": "45.10",
        "vesting": {"anniversary": anniversary, "annual_meeting_date": meeting},
        "default_payment_anniversary": draw(st.integers(1, 3)),
    }


@st.composite
def forms(draw, grant: dict, first_eligible: date | None, as_of: date) -> dict:
    grant_date, deadline = grant["grant_date"], grant["election_deadline"]
    vests = specified(grant)
    edges = [
        deadline,
        grant_date,
        grant_date + timedelta(days=30),
        date(grant_date.year - 1, 12, 31),
        months_on(vests, -12),
        months_on_month_end(vests, -12),
        as_of,
    ]
    if first_eligible is not None:
        edges.append(first_eligible + timedelta(days=30))
    # Or comfortably timely on every count, so that many forms govern and payment rules bite.
    filed = draw(
        st.sampled_from([near(draw, draw(st.sampled_from(edges))), deadline - timedelta(40)])
    )
    pay_on = draw(st.sampled_from(["separation", "date", "earlier_of_separation_or_date"]))
    form = {
        "grant_id": draw(st.sampled_from([GRANT_ID] * 6 + ["2025-annual"])),
        "filed_on": filed,
        "percent": draw(st.sampled_from([100, 100, "100.0", 50, 99.5])),
        "pay_on": pay_on,
    }
    if pay_on != "separation":
        meeting = grant["vesting"]["annual_meeting_date"] or vests
        base = draw(st.sampled_from([vests, meeting, vests + timedelta(days=900)]))
        form["pay_date"] = near(draw, base)
    return form


@st.composite
def settlements(draw, grant: dict, director_forms: list[dict], always=False) -> dict | None:
    if not always and draw(st.booleans()):
        return None
    grant_date = grant["grant_date"]

    def some_day():
        return draw(st.none() | st.just(grant_date + timedelta(days=draw(st.integers(30, 1800)))))

    settled = {
        "separation_on": draw(
            st.sampled_from([some_day(), some_day() or grant_date + timedelta(400)])
        ),
        "death_on": draw(st.none() | st.none() | st.just(some_day())),
        "disability_on": draw(st.none() | st.none() | st.just(some_day())),
        "change_in_control_on": draw(st.none() | st.none() | st.just(some_day())),
    }
    candidates = [months_on(grant_date, 12 * n) for n in (1, 2, 3)]
    candidates += [day for day in settled.values() if day is not None]
    if settled["separation_on"] is not None:
        candidates.append(months_on(settled["separation_on"], 6))
    candidates += [form["pay_date"] for form in director_forms if form.get("pay_date")]
    base = draw(st.sampled_from(candidates))
    settled["delivered_on"] = base + timedelta(days=draw(st.sampled_from([-1, 0, 1, 59, 60, 61])))
    return settled


@st.composite
def cycles(draw) -> tuple[dict, date, str]:
    grant = draw(grants())
    as_of = draw(
        st.sampled_from(
            [near(draw, grant["election_deadline"]), grant["grant_date"] + timedelta(3000)]
        )
    )
    directors = []
    for index in range(draw(st.integers(1, 3))):
        first_eligible = draw(
            st.none() | st.just(grant["grant_date"] - timedelta(days=draw(st.integers(0, 60))))
        )
        director_forms = [
            draw(forms(grant, first_eligible, as_of)) for _ in range(draw(st.integers(0, 3)))
        ]
        directors.append(
            {
                "id": f"d{index}",
                "name": f"Director {index}",
                "units": 1000,
                "employee": draw(st.sampled_from([False, False, False, True])),
                "specified_employee": draw(st.booleans()),
                "first_eligible_on": first_eligible,
                "elections": director_forms,
                "settlement": draw(settlements(grant, director_forms)),
            }
        )
    data = deep_merge(bases()["director"]["facts"], {"grant": grant})
    data["directors"] = directors
    return data, as_of, draw(st.sampled_from(["grant", "elections"]))


@st.composite
def supersessions(draw) -> tuple[dict, date, str]:
    """One non-employee director with several forms for this grant filed around the Date of Grant
    and the deadline (which may fall after it), and a delivery: which form governs (DESIGN.md,
    "Which Exhibit I governs")?"""
    grant = draw(grants(deadline_before=(0, 1, 10, -1, -3, -6)))
    as_of = grant["grant_date"] + timedelta(3000)
    grant_date, deadline = grant["grant_date"], grant["election_deadline"]
    director_forms = []
    for _ in range(draw(st.integers(2, 4))):
        form = draw(forms(grant, None, as_of))
        form["grant_id"] = GRANT_ID
        form["filed_on"] = draw(
            st.sampled_from(
                [grant_date - timedelta(40), near(draw, grant_date), near(draw, deadline)]
            )
        )
        director_forms.append(form)
    director = {
        "id": "d0",
        "name": "Director 0",
        "units": 1000,
        "specified_employee": draw(st.booleans()),
        "elections": director_forms,
        "settlement": draw(settlements(grant, director_forms, always=True)),
    }
    data = deep_merge(bases()["director"]["facts"], {"grant": grant})
    data["directors"] = [director]
    return data, as_of, "grant"


def _loaded(data: dict[str, Any]) -> LoadedFacts:
    facts = DirectorGrantFacts.model_validate(data)
    return LoadedFacts(facts=facts, source=SourceMap("generated.yaml"), path=None, sha256="0" * 64)


def docgen_findings(data: dict, as_of: date, stage: str) -> Counter:
    report = run_checks(_loaded(data), as_of, stage)
    return Counter(
        (f.rule, f.subject, f.path, f.severity)
        for f in report.findings
        if f.rule.startswith("RSU-")
    )


# ------------------------------------------------------------------------------ the properties


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
@SETTINGS
@given(cycles())
def test_the_rsu_rules_agree_with_a_plain_reading_of_the_catalogue(cycle):
    data, as_of, stage = cycle
    got, want = docgen_findings(data, as_of, stage), expected_findings(data, as_of, stage)
    assert got == want, {"docgen only": got - want, "reading only": want - got}


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
@SETTINGS
@given(supersessions())
def test_the_governing_form_agrees_with_a_plain_reading_of_a2(cycle):
    data, as_of, stage = cycle
    got, want = docgen_findings(data, as_of, stage), expected_findings(data, as_of, stage)
    assert got == want, {"docgen only": got - want, "reading only": want - got}


def test_the_director_base_of_the_rule_cases_is_clean():
    base = bases()["director"]
    assert not docgen_findings(base["facts"], base["as_of"], base["stage"])
    assert not expected_findings(base["facts"], base["as_of"], base["stage"])


def test_the_reading_sees_supersession_lateness_and_void_forms():
    """The reading itself, on the cases the amendments name: it must not agree by being blind."""
    data = copy.deepcopy(bases()["director"]["facts"])  # bases() is shared: never mutate it
    separation = {"pay_on": "separation", "percent": 100, "grant_id": GRANT_ID}
    later = {"pay_on": "date", "pay_date": date(2029, 1, 2), "percent": 100, "grant_id": GRANT_ID}
    data["directors"][0]["elections"] = [
        {**separation, "filed_on": date(2026, 5, 15)},
        {**later, "filed_on": date(2026, 6, 1)},
    ]
    data["directors"][0]["settlement"] = {
        "separation_on": date(2027, 9, 1),
        "delivered_on": date(2027, 9, 15),
    }
    path = "directors[0].settlement.delivered_on"
    window = ("RSU-DELIVERY-WINDOW", "d1", path, "error")
    assert expected_findings(data, date(2027, 10, 1), "grant")[window] == 1
    # A late own form: the default Payment Date (June 23, 2027) applies.
    data["directors"][0]["elections"] = [{**separation, "filed_on": date(2026, 6, 23)}]
    assert expected_findings(data, date(2027, 10, 1), "grant")[window] == 1
    # Service that ended before the Vesting Date forfeits the units: their delivery is an error.
    data["directors"][0]["settlement"] = {
        "separation_on": date(2027, 6, 22),
        "delivered_on": date(2027, 6, 30),
    }
    gone = ("RSU-FORFEITED-UNITS-DELIVERED", "d1", path, "error")
    assert expected_findings(data, date(2027, 10, 1), "grant")[gone] == 1
    # An employee director's late partial form: only RSU-ELECTION-EMPLOYEE-DIRECTOR.
    data["directors"][0].update(employee=True, settlement=None)
    data["directors"][0]["elections"] = [
        {**separation, "filed_on": date(2026, 6, 23), "percent": 50}
    ]
    assert set(expected_findings(data, date(2026, 6, 23), "grant")) == {
        ("RSU-ELECTION-EMPLOYEE-DIRECTOR", "d1", "directors[0].elections[0]", "error")
    }
