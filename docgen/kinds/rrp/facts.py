"""The facts of a Retirement Restoration Plan Year (DESIGN.md, "kind: rrp-plan-year"): the Plan's
terms, its participants, their Deferral Elections, terminations and payments."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import ClassVar, Literal

from pydantic import Field, StrictBool, model_validator

from docgen.core.errors import some_ids
from docgen.core.kind_facts import COMPANY_NAME_FIX, KindFacts
from docgen.core.model import (
    Count,
    DecisionText,
    EmailAddress,
    Fact,
    FactDate,
    FormSHA256,
    Money,
    Percent,
    PersonName,
    RecordStatus,
    SubjectId,
    Text,
    Year,
    check_decision,
    form_error,
)
from docgen.kinds.rrp.pay_schedule import Frequency, PaySchedule
from docgen.kinds.rrp.payroll_layout import PayrollSettings

_PLAN_NAME = (
    "the Plan's name as the forms print it (e.g. Example Co. Retirement Restoration Plan); "
    "docgen never fills in another company's. The Plan's other terms default to the restated "
    "Plan, and the check report names each default taken."
)
PLAN_FIX = f"Add plan: with name: {_PLAN_NAME}"
PLAN_NAME_FIX = f"Add name: under plan: {_PLAN_NAME}"


class RRPCompany(Fact):
    name: Text = Field(json_schema_extra={"fix": COMPANY_NAME_FIX})
    publicly_traded: StrictBool = True
    governing_law: Text | None = None


class RRPPlan(Fact):
    """Plan terms. The name is the company's own and required; the other terms default to the
    Plan as amended and restated effective January 1, 2017, and the report names each default."""

    name: Text = Field(
        description="The Plan's name as the forms print it.",
        json_schema_extra={"fix": PLAN_NAME_FIX},
    )
    max_deferral_percent: Percent = Decimal(75)
    match_rate_percent: Percent = Decimal(100)
    match_cap_percent: Percent = Decimal(6)
    compensation_limit: Money | None = Field(
        None, description="401(a)(17) limit; required only for a year with no published figure yet."
    )
    retirement_age: Count = Field(
        65, description='Plan 1.24: "Retire" is a Termination of Employment at or after this age.'
    )
    retirement_hours_of_service: Count = Field(
        1000,
        description="Plan 3.02: Hours of Service in the year a Participant who Retired must have.",
    )
    years_of_vesting_service_to_vest: Count = Field(
        3, description="Plan 3.06(b): Years of Vesting Service that vest the restoration accounts."
    )
    hour_of_service_vests_from: FactDate = Field(
        date(2017, 1, 1),
        description="Plan 3.06(b): an Hour of Service on or after this day vests the restoration "
        "accounts.",
    )
    investment_options: list[Text] = Field(
        default_factory=list,
        description="Plan 3.05(a): the Plan Asset Committee's investment menu, in the order the "
        "Deferral Election Form lists it. Needed to issue the form.",
    )
    key_employees_determined_on: list[FactDate] = Field(
        default_factory=list,
        description="Plan 1.14: the December 31 dates as of which the Company identified its Key "
        "Employees (RRP-KEY-EMPLOYEE-UNDETERMINED warns on a payment no determination covers).",
    )
    pay_schedule: PaySchedule | None = Field(
        None,
        description="Plan 3.03: how often payroll runs (frequency, first_pay_date). With it, a "
        "participant without pay_periods is paid their salary in equal parts on the pay dates "
        "they are employed, and their bonus on bonus_paid_on; `docgen payroll` and `docgen "
        "compute` work deferral and match per paycheck, and their notes say so. It pays every "
        "participant who gives no pay_frequency of their own.",
    )
    pay_schedules: list[PaySchedule] = Field(
        default_factory=list,
        description="Plan 3.03: the company's other payrolls, one per frequency (a semimonthly "
        "payroll beside a biweekly pay_schedule), each with its own first pay date: a "
        "participant whose pay_frequency is one of them is paid on it. A participant's "
        "pay_frequency with no schedule here or in pay_schedule is refused, never guessed.",
    )

    def schedules(self) -> list[tuple[str, PaySchedule]]:
        """Every pay schedule the Plan states, each with the facts' path to it."""
        named = [("plan.pay_schedule", self.pay_schedule)] if self.pay_schedule else []
        return named + [
            (f"plan.pay_schedules[{index}]", schedule)
            for index, schedule in enumerate(self.pay_schedules)
        ]

    @model_validator(mode="after")
    def _one_schedule_per_frequency(self) -> RRPPlan:
        seen = {self.pay_schedule.frequency} if self.pay_schedule else set()
        for index, schedule in enumerate(self.pay_schedules):
            if schedule.frequency in seen:
                raise form_error(
                    f"a second {schedule.frequency} pay schedule: a frequency has one first pay "
                    "date, so which one pays a participant would be a guess",
                    f"Keep one {schedule.frequency} schedule across pay_schedule and "
                    "pay_schedules.",
                    field=f"pay_schedules.{index}.frequency",
                )
            seen.add(schedule.frequency)
        return self

    @model_validator(mode="after")
    def _determinations_are_december_31(self) -> RRPPlan:
        for index, day in enumerate(self.key_employees_determined_on):
            if (day.month, day.day) != (12, 31):
                raise form_error(
                    f"Key Employees are determined as of December 31, not {day.isoformat()}",
                    "List the December 31 dates of the determinations (Plan 1.14).",
                    field=f"key_employees_determined_on.{index}",
                )
        return self


class Beneficiary(Fact):
    name: PersonName
    relationship: Text | None = None
    percent: Percent = Decimal(100)
    contingent: StrictBool = Field(
        False,
        description="A contingent Beneficiary takes only if no primary Beneficiary survives the "
        "Participant; primary shares total 100, and contingent shares total 100.",
    )


class PerformancePeriod(Fact):
    start: FactDate
    end: FactDate
    criteria_established_on: FactDate | None = None

    @model_validator(mode="after")
    def _ordered(self) -> PerformancePeriod:
        if self.end < self.start:
            raise form_error(
                "the performance period ends before it starts",
                "Check start and end (YYYY-MM-DD).",
                field="end",
            )
        return self


class RRPElection(Fact):
    kind: Literal["salary", "bonus", "performance_based"]
    plan_year: Year
    percent: Percent
    made_on: FactDate
    performance_period: PerformancePeriod | None = Field(
        None,
        description="Required for performance_based; for bonus, the period the bonus is earned "
        "over "
        "(defaults to the Plan Year).",
    )
    status: RecordStatus = None
    reason: DecisionText = None
    decided_by: DecisionText = None
    form_sha256: FormSHA256 = None
    # How the form arrived and its signature block's date, as intake or elect took them
    # (issue 44: what `docgen elect --signed-on/--recorded-by` is given is kept, not dropped).
    received_as: Literal["pdf", "paper"] | None = Field(
        None,
        description="How the form was received: pdf (a filled PDF, `docgen intake`) or paper "
        "(its content recorded with `docgen elect`).",
    )
    signed_on: FactDate | None = Field(None, description="The date signed, as written on the form.")
    recorded_by: Text | None = Field(
        None, description="Who recorded a paper form's content (`docgen elect --recorded-by`)."
    )
    recorded_on: FactDate | None = Field(
        None, description="The day a paper form's content was recorded (`docgen elect`)."
    )
    revoked_on: FactDate | None = Field(
        None,
        description="Plan 2.03(b): the day the Participant revoked this election; it stops "
        "applying from the first Plan Year whose deadline the revocation meets.",
    )

    @model_validator(mode="after")
    def _revoked_after_made(self) -> RRPElection:
        if self.revoked_on is not None and self.revoked_on < self.made_on:
            raise form_error(
                f"revoked_on {self.revoked_on.isoformat()} is before made_on "
                f"{self.made_on.isoformat()}",
                "An election is revoked after it is made: check both dates (YYYY-MM-DD).",
                field="revoked_on",
            )
        return self

    @model_validator(mode="after")
    def _period_for_performance_pay(self) -> RRPElection:
        check_decision(self)
        if self.kind == "performance_based" and self.performance_period is None:
            raise form_error(
                "a performance_based election needs its performance_period",
                "Add performance_period: {start: ..., end: ..., criteria_established_on: ...}.",
                field="performance_period",
            )
        if self.kind == "salary" and self.performance_period is not None:
            raise form_error(
                "a salary election has no performance_period",
                "Remove performance_period, or change kind to bonus or performance_based.",
                field="performance_period",
            )
        return self


class Termination(Fact):
    on: FactDate
    reason: Literal["retirement", "death", "disability", "other"]
    age: Count | None = None
    hours_of_service: Count | None = Field(
        None, description="Hours of Service in the Plan Year of termination (Plan 3.02)."
    )


class Payment(Fact):
    on: FactDate
    amount: Money
    to: Literal["participant", "beneficiary", "alternate_payee"] = "participant"


class PayPeriod(Fact):
    """One payroll: the Compensation paid on ``paid_on`` (Plan 3.03, 3.04 work by pay period)."""

    paid_on: FactDate
    compensation: Money = Field(
        description="Compensation paid this pay period, before the 401(a)(17) limit."
    )
    bonus: Money = Field(
        Decimal(0),
        description="The part of this period's compensation that is bonus or performance-based pay "
        "(the bonus election applies to it; the salary election to the rest).",
    )
    services_from: FactDate | None = Field(
        None,
        description="The first day of the services this payroll's salary pays for (a payroll "
        "in arrears pays for days before its pay date). Absent: the day after the previous pay "
        "date (the first: January 1 or the hire date), and `docgen compute` says so.",
    )
    services_to: FactDate | None = Field(
        None, description="The last day of the services this payroll's salary pays for."
    )

    @model_validator(mode="after")
    def _bonus_within_pay(self) -> PayPeriod:
        if self.bonus > self.compensation:
            raise form_error(
                f"bonus {self.bonus} is more than the period's compensation {self.compensation}",
                "bonus is the part of compensation that is bonus pay; it cannot exceed it.",
                field="bonus",
            )
        if (self.services_from is None) != (self.services_to is None):
            raise form_error(
                "services_from and services_to go together",
                "Give both days of the service period this payroll pays for, or neither.",
                field="services_to" if self.services_to is None else "services_from",
            )
        if (
            self.services_from is not None
            and self.services_to is not None
            and self.services_to < self.services_from
        ):
            raise form_error(
                f"services_to {self.services_to} is before services_from {self.services_from}",
                "The service period ends on or after the day it begins.",
                field="services_to",
            )
        return self


class Participant(Fact):
    id: SubjectId = Field(
        description="As payroll writes it (letters, digits, ., _, -); unique without regard to "
        "case; names the participant's folder."
    )
    name: PersonName
    address: list[Text] = Field(
        default_factory=list,
        description="Mailing address lines, printed under the name on the Deferral Election Form.",
    )
    email: EmailAddress | None = Field(
        None,
        description="Where `docgen send` mails the forms (one address, name@example.com); no "
        "document prints it.",
    )
    eligible_employee: StrictBool = Field(
        description="Select group; common-law employee on U.S. payroll; not CBA/leased."
    )
    compensation: Money | None = Field(
        None,
        description="Compensation paid in the Plan Year, before the 401(a)(17) limit (Plan "
        "1.21). Required, unless annual_rate is given instead.",
    )
    annual_rate: Money | None = Field(
        None,
        description="The annual rate of base salary, where the records give a rate rather than "
        "the pay paid in the Plan Year: the salary paid is worked from it on the participant's "
        "pay dates, hire to termination (docs/rrp-arithmetic.md), and Compensation is that "
        "salary plus bonus_compensation. Needs a pay schedule; give it or compensation, not both.",
    )
    pay_frequency: Frequency | None = Field(
        None,
        description="How often this participant is paid (weekly, biweekly, semimonthly or "
        "monthly): paid on the Plan's schedule of that frequency (plan.pay_schedule or "
        "plan.pay_schedules), which must be stated. Omitted: plan.pay_schedule.",
    )
    hired_on: FactDate | None = None
    first_eligible_on: FactDate | None = Field(
        None, description="Set when this Plan Year is the first year of eligibility."
    )
    previously_eligible_until: FactDate | None = Field(
        None, description="End of an earlier eligibility (24-month re-eligibility rule)."
    )
    key_employee_on: list[FactDate] = Field(
        default_factory=list,
        description="December 31 determinations at which the Participant was a Key Employee.",
    )
    beneficiaries: list[Beneficiary] = Field(default_factory=list)
    investments: dict[Text, Percent] = Field(default_factory=dict)
    elections: list[RRPElection] = Field(default_factory=list)
    termination: Termination | None = None
    payments: list[Payment] = Field(default_factory=list)
    bonus_compensation: Money | None = Field(
        None,
        description="The part of compensation that is bonus or performance-based pay "
        "(docs/rrp-arithmetic.md); the salary election applies to the rest. Omitted: all salary.",
    )
    pay_periods: list[PayPeriod] = Field(
        default_factory=list,
        description="The Plan Year's payrolls, in any order; when given, deferral and match are "
        "worked per pay period (Plan 3.03, 3.04) and they must add up to compensation.",
    )
    bonus_paid_on: FactDate | None = Field(
        None,
        description="The day the bonus (bonus_compensation) is paid: with plan.pay_schedule, in "
        "that day's regular paycheck, or in a paycheck of its own on a day payroll does not run.",
    )
    years_of_vesting_service: Count | None = Field(
        None, description="Years of Vesting Service under the Retirement Savings Plan (Plan 3.06)."
    )
    died_on: FactDate | None = Field(
        None,
        description="The date of death of a Participant who died after Termination of "
        "Employment (a death in service is termination reason death): a payment to the "
        "Beneficiary needs a recorded death.",
    )

    @model_validator(mode="after")
    def _death_after_termination(self) -> Participant:
        termination = self.termination
        if self.died_on is None or termination is None:
            return self
        if self.died_on < termination.on:
            raise form_error(
                f"died_on {self.died_on.isoformat()} is before the termination on "
                f"{termination.on.isoformat()}",
                "A death in service is recorded as the termination, with reason: death; "
                "died_on is for a death after termination.",
                field="died_on",
            )
        if termination.reason == "death" and self.died_on != termination.on:
            raise form_error(
                f"died_on {self.died_on.isoformat()} differs from the termination by death on "
                f"{termination.on.isoformat()}",
                "Remove died_on: termination.on is the date of death.",
                field="died_on",
            )
        return self

    @model_validator(mode="after")
    def _pay_or_rate(self) -> Participant:
        # Plan 1.21: Compensation is pay paid in the Plan Year; a rate of pay is a different
        # figure, so which one the facts give is stated, never guessed (A24).
        if self.compensation is None and self.annual_rate is None:
            raise form_error(
                # worded as pydantic's own, so a cell refused by a columns: reader is not said
                # twice (docgen.load._once)
                "required field is missing",
                "Add compensation (the pay paid in the Plan Year, Plan 1.21), or annual_rate "
                "(the annual rate of base salary, worked through the pay schedule).",
                field="compensation",
            )
        if self.compensation is not None and self.annual_rate is not None:
            raise form_error(
                "both compensation and annual_rate: the pay paid in the Plan Year is one or "
                "the other, and which to believe would be a guess",
                "Keep compensation (pay paid in the Plan Year) or annual_rate (a rate of base "
                "salary), not both.",
                field="annual_rate",
            )
        if self.annual_rate is not None and self.pay_periods:
            raise form_error(
                "both annual_rate and pay_periods: the pay_periods are the pay paid, which a "
                "rate would work out again",
                "Keep the pay_periods and give compensation (their sum), or remove them.",
                field="annual_rate",
            )
        return self

    @model_validator(mode="after")
    def _parts_add_up(self) -> Participant:
        if self.compensation is None:
            return self  # from annual_rate: worked out with the pay schedule (paychecks)
        if self.bonus_compensation is not None and self.bonus_compensation > self.compensation:
            raise form_error(
                f"bonus_compensation {self.bonus_compensation} is more than compensation "
                f"{self.compensation}",
                "compensation is the whole year's pay; bonus_compensation is the bonus part of it.",
                field="bonus_compensation",
            )
        if self.pay_periods:
            paid = sum((period.compensation for period in self.pay_periods), Decimal(0))
            if paid != self.compensation:
                raise form_error(
                    f"pay_periods add up to {paid} but compensation is {self.compensation}",
                    "List every payroll of the Plan Year, or correct compensation.",
                    field="pay_periods",
                )
            bonus = sum((period.bonus for period in self.pay_periods), Decimal(0))
            if self.bonus_compensation is not None and bonus != self.bonus_compensation:
                raise form_error(
                    f"the pay_periods' bonus adds up to {bonus} but bonus_compensation is "
                    f"{self.bonus_compensation}",
                    "Make them agree, or omit bonus_compensation (the pay_periods' sum is used).",
                    field="bonus_compensation",
                )
        return self

    @model_validator(mode="after")
    def _determinations_are_december_31(self) -> Participant:
        for index, day in enumerate(self.key_employee_on):
            if (day.month, day.day) != (12, 31):
                raise form_error(
                    "Key Employee determinations are made as of December 31, "
                    f"not {day.isoformat()}",
                    "List the December 31 at which the Participant was a Key Employee (Plan 1.14).",
                    field=f"key_employee_on.{index}",
                )
        return self


class RRPPlanYearFacts(KindFacts[RRPCompany]):
    kind: Literal["rrp-plan-year"]
    plan: RRPPlan = Field(
        description="The Plan's name, and any term that differs from the restated Plan.",
        json_schema_extra={"fix": PLAN_FIX},
    )
    plan_year: Year
    retirement_contribution_percent: Percent | None = Field(
        None, description="Declared under the Retirement Savings Plan; omit if none."
    )
    payroll: PayrollSettings | None = Field(
        None,
        description="How the payroll system imports docgen's figures: its layout for one pay "
        "date's deductions and matches (`docgen payroll --pay-date`; docs/payroll-layouts.md).",
    )
    participants_csv: Text | None = Field(
        None, description="Roster file (relative path), one row per participant."
    )
    elections_csv: Text | None = Field(
        None,
        description="Deferral Elections as rows (relative path): one row per election received, "
        "naming its participant by participant_id; columns as an election's fields "
        "(performance_start, performance_end, criteria_established_on for its "
        "performance_period). A participant's elections are all here or all elsewhere.",
    )
    beneficiaries_csv: Text | None = Field(
        None,
        description="Beneficiary designations as rows (relative path): participant_id, name, "
        "relationship, percent, contingent; one row per Beneficiary.",
    )
    allocations_csv: Text | None = Field(
        None,
        description="Investment allocations as rows (relative path): participant_id, fund, "
        "percent; one row per fund (Plan 3.05(b)).",
    )
    participants: list[Participant] = Field(default_factory=list)

    shared_fields_before: ClassVar[str | None] = "participants_csv"

    @model_validator(mode="after")
    def _paid_in_the_plan_year(self) -> RRPPlanYearFacts:
        for path, schedule in self.plan.schedules():
            if schedule.first_pay_date.year != self.plan_year:
                raise form_error(
                    f"the pay schedule's first pay date {schedule.first_pay_date.isoformat()} is "
                    f"not in the {self.plan_year} Plan Year",
                    f"Give the first regular pay date of {self.plan_year}.",
                    field=f"{path.replace('[', '.').replace(']', '')}.first_pay_date",
                )
        unscheduled = [
            (index, participant)
            for index, participant in enumerate(self.participants)
            if (participant.pay_frequency is not None or participant.annual_rate is not None)
            and self.pay_schedule_of(participant) is None
        ]
        if unscheduled:
            index, first = unscheduled[0]
            frequency = first.pay_frequency
            if frequency is not None:
                same = [p.id for _, p in unscheduled if p.pay_frequency == frequency]
                raise form_error(
                    f"{some_ids(same)} {'is' if len(same) == 1 else 'are'} paid {frequency}, but "
                    f"the Plan states no {frequency} pay schedule: the first {frequency} pay "
                    "date is not known, and docgen does not guess it",
                    f"Add the company's {frequency} payroll to plan.pay_schedules: "
                    f"{{frequency: {frequency}, first_pay_date: YYYY-MM-DD}} (its first pay date "
                    f"in {self.plan_year}), or correct the participant's pay frequency.",
                    field=f"participants.{index}.pay_frequency",
                )
            rated = [p.id for _, p in unscheduled if p.pay_frequency is None]
            raise form_error(
                (
                    f"the annual rate of {rated[0]} is"
                    if len(rated) == 1
                    else f"the annual rates of {some_ids(rated)} are"
                )
                + " worked into the pay paid in the Plan Year on each participant's pay dates, "
                "and the Plan states no pay schedule",
                "Add plan.pay_schedule: {frequency: ..., first_pay_date: YYYY-MM-DD} (the "
                "company's payroll), or give compensation, the pay paid in the Plan Year, "
                "in place of the rate (Plan 1.21).",
                field=f"participants.{index}.annual_rate",
            )
        for index, participant in enumerate(self.participants):
            paid_on = participant.bonus_paid_on
            if paid_on is not None and paid_on.year != self.plan_year:
                raise form_error(
                    f"bonus_paid_on {paid_on.isoformat()} is not in the {self.plan_year} Plan Year",
                    "Give the day in the Plan Year the bonus is paid: Plan Compensation is by "
                    "the year's pay (Plan 1.21).",
                    field=f"participants.{index}.bonus_paid_on",
                )
        undated = [
            (index, participant.id)
            for index, participant in enumerate(self.participants)
            if participant.bonus_compensation
            and participant.bonus_paid_on is None
            and not participant.pay_periods
            and self.pay_schedule_of(participant) is not None
        ]
        if undated:
            names = ", ".join(identifier for _, identifier in undated)
            raise form_error(
                f"the pay schedule pays salary on its pay dates, but the bonus of {names} has no "
                "pay date: where it falls in the year decides how much of it is above the "
                "401(a)(17) limit (Plan 1.21, 3.03)",
                "Give each bonus's bonus_paid_on (a roster column too), or the participant's "
                "pay_periods.",
                field=f"participants.{undated[0][0]}.bonus_paid_on",
            )
        return self

    def pay_schedule_of(self, participant: Participant) -> PaySchedule | None:
        """The pay schedule the participant is paid on: the Plan's schedule of their own
        pay_frequency, else plan.pay_schedule (None: no schedule of that frequency, or none)."""
        if participant.pay_frequency is None:
            return self.plan.pay_schedule
        for _, schedule in self.plan.schedules():
            if schedule.frequency == participant.pay_frequency:
                return schedule
        return None

    def participant(self, participant_id: str) -> Participant:
        for participant in self.participants:
            if participant.id == participant_id:
                return participant
        raise KeyError(participant_id)
