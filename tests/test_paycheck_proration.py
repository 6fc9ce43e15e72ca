"""A first paycheck after a hire within its pay period pays for the days worked (Plan 1.21: Plan
Compensation is pay actually paid), worked by hand on the period's boundaries."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.paychecks import paychecks


def _facts(hired_on: str, frequency: str = "semimonthly", first: str = "2026-01-15"):
    return RRPPlanYearFacts.model_validate(
        {
            "kind": "rrp-plan-year",
            "company": {"name": "X Corp."},
            "plan": {
                "name": "X Corp. Retirement Restoration Plan",
                "pay_schedule": {
                    "frequency": frequency,
                    "first_pay_date": date.fromisoformat(first),
                },
            },
            "plan_year": 2026,
            "participants": [
                {
                    "id": "e1",
                    "name": "Pat Lee",
                    "eligible_employee": True,
                    "compensation": "400000.00",
                    "hired_on": date.fromisoformat(hired_on),
                }
            ],
        },
        strict=False,
    )


def _salaries(hired_on: str, **schedule: str) -> list[Decimal]:
    facts = _facts(hired_on, **schedule)
    return [p.compensation for p in paychecks(facts, facts.participants[0]).periods]


def test_a_hire_within_a_period_is_paid_for_the_days_worked():
    # July 1-15 is the July 15 paycheck's period: 15 days; hired July 10, 6 worked. The salary
    # paid in the year, $400,000, is 11 full periods and 6/15 of one: 11.4 shares.
    paid = _salaries("2026-07-10")
    assert paid[0] == Decimal("14035.08")  # 400,000 x 0.4 / 11.4 = 14,035.087..., to the cent down
    assert paid[1:-1] == [Decimal("35087.71")] * 10  # 400,000 / 11.4 = 35,087.719...
    assert sum(paid) == Decimal("400000.00")


def test_a_hire_on_the_periods_first_day_is_a_full_period():
    paid = _salaries("2026-07-01")  # July 1-15: all 15 days worked; 12 equal paychecks
    assert paid[:-1] == [Decimal("33333.33")] * 11
    assert paid[-1] == Decimal("33333.37")


def test_a_hire_on_the_pay_date_itself_is_paid_one_day():
    paid = _salaries("2026-07-15")  # 1 of July 1-15's 15 days: 11 + 1/15 shares
    assert paid[0] == Decimal("2409.63")  # 400,000 x (1/15) / (166/15) = 2,409.638...
    assert sum(paid) == Decimal("400000.00")


def test_a_hire_the_day_after_a_pay_date_is_a_full_period():
    paid = _salaries("2026-07-16")  # July 16-31 is the next period, worked whole
    assert len(paid) == 11 and paid[0] == Decimal("36363.63")  # 400,000 / 11


def test_a_january_1_hire_is_not_prorated():
    """The year's first paycheck pays for the period before it (in arrears): a hire on January 1
    is a full year, as the pay schedule's equal parts have always read it."""
    paid = _salaries("2026-01-01", frequency="biweekly", first="2026-01-09")
    assert len(set(paid[:-1])) == 1


def test_a_biweekly_years_first_period_is_one_step_back():
    # The January 9 paycheck's period is December 27 to January 9 (14 days); hired January 5,
    # 5 worked: 25 full paychecks and 5/14 of one.
    paid = _salaries("2026-01-05", frequency="biweekly", first="2026-01-09")
    assert len(paid) == 26
    share = Decimal(400000) * 5 / 14 / (Decimal(25) + Decimal(5) / 14)
    assert paid[0] == share.quantize(Decimal("0.01"), rounding="ROUND_DOWN")


def test_the_note_names_the_days_worked_and_the_periods_days_as_counted():
    # July 10-15 of July 1-15: "6 of the period's 15 days", not the share in lowest terms (2/5).
    facts = _facts("2026-07-10")
    notes = paychecks(facts, facts.participants[0]).notes
    assert any("the days worked, 6 of the period's 15 days" in note for note in notes), notes


def test_a_semimonthly_years_first_period_is_january_1_to_15():
    # The January 15 paycheck pays for January 1-15 (15 days; the previous pay date is December
    # 31), not the 16 days back that the gap to January 31 would give; hired January 5, 11
    # worked: 23 full paychecks and 11/15 of one. The same period an annual rate is prorated by.
    paid = _salaries("2026-01-05")
    assert len(paid) == 24
    share = Decimal(400000) * 11 / 15 / (Decimal(23) + Decimal(11) / 15)
    assert paid[0] == share.quantize(Decimal("0.01"), rounding="ROUND_DOWN")


def test_a_monthly_years_first_period_is_the_month_before_its_pay_date():
    # Paid on each month's last day: the January 31 paycheck pays for January 1-31 (31 days,
    # not the 28 back to the gap before February 28); hired January 2, 30 worked.
    paid = _salaries("2026-01-02", frequency="monthly", first="2026-01-31")
    assert len(paid) == 12
    share = Decimal(400000) * 30 / 31 / (Decimal(11) + Decimal(30) / 31)
    assert paid[0] == share.quantize(Decimal("0.01"), rounding="ROUND_DOWN")
