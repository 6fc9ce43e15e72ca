"""The fact model: what a facts file may say, field for field (DESIGN.md, "Fact files").

The model checks *form*, never policy. ``percent: 7.5`` and ``percent: 80`` load (the checker
flags them); ``percent: ten``, an impossible date, an unknown key or a duplicate id do not.
Every model is strict (no silent coercion), frozen and forbids unknown keys, so a typo never
silently drops a fact. Money and percentages are ``Decimal``, never float.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

ID_PATTERN = r"^[a-z0-9-]+$"
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def form_error(what: str, fix: str, field: str | None = None) -> PydanticCustomError:
    """A form error with its fix; ``field`` points below the model that raised it."""
    ctx: dict[str, Any] = {"what": what, "fix": fix}
    if field:
        ctx["field"] = field
    return PydanticCustomError("docgen_form", "{what}", ctx)


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        raise form_error(
            "expected a date, not a date and time", "Write the date alone as YYYY-MM-DD."
        )
    if isinstance(value, date):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            raise form_error(
                "not a real calendar date", "Check the month and day (YYYY-MM-DD)."
            ) from None
    raise form_error("expected a date as YYYY-MM-DD", "Write it like 2026-06-23.")


def _parse_decimal(value: Any) -> Decimal:
    if isinstance(value, bool):
        raise form_error("expected a number", 'Write a number such as 10 or "45.10".')
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))  # the digits the file showed, not the binary float
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
        if text.startswith("$"):
            text = text[1:]
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise form_error("expected a number", 'Write a number such as 10 or "45.10".') from None
    else:
        raise form_error("expected a number", 'Write a number such as 10 or "45.10".')
    if not number.is_finite():
        raise form_error("expected a finite number", 'Write a number such as 10 or "45.10".')
    return number


def _non_negative(value: Decimal) -> Decimal:
    if value < 0:
        raise form_error("must not be negative", "Write zero or a positive amount.")
    return value


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise form_error(
            "expected a whole number",
            "Write digits only, without quotes or commas, such as 2450.",
        )
    if value <= 0:
        raise form_error("must be a positive whole number", "Write a number of 1 or more.")
    return value


def _decimal_json(value: Decimal) -> str:
    return format(value, "f")


FactDate = Annotated[
    date,
    BeforeValidator(_parse_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": _ISO_DATE.pattern}),
]
Money = Annotated[
    Decimal,
    BeforeValidator(lambda v: _non_negative(_parse_decimal(v))),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "minimum": 0},
                {"type": "string", "pattern": r"^\$?[0-9,]*\.?[0-9]+$"},
            ]
        }
    ),
]
Percent = Annotated[
    Decimal,
    BeforeValidator(_parse_decimal),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]*\.?[0-9]+$"}]}
    ),
]
PositiveInt = Annotated[
    int, BeforeValidator(_positive_int), WithJsonSchema({"type": "integer", "minimum": 1})
]
FactId = Annotated[StrictStr, Field(pattern=ID_PATTERN, min_length=1, max_length=64)]
Text = Annotated[StrictStr, Field(min_length=1)]


class Fact(BaseModel):
    """Base of every fact model: strict, frozen, unknown keys forbidden."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid", str_strip_whitespace=True)


# --------------------------------------------------------------------------- director RSU grant


class DirectorCompany(Fact):
    name: Text = Field(description="The issuer, as the Notice names it.")
    secretary_phone: Text = Field(
        description='The corporate secretary\'s telephone, e.g. "(804) 747-0422".'
    )
    governing_law: Text = Field(
        description="Governing law of the Notice, e.g. Commonwealth of Virginia."
    )
    publicly_traded: StrictBool = Field(
        True, description="Code 409A specified-employee rules apply."
    )


class Vesting(Fact):
    anniversary: PositiveInt = Field(
        1, description="Specified Date = this anniversary of the Grant Date."
    )
    annual_meeting_date: FactDate | None = Field(
        None, description="If set, the units vest on the earlier of the anniversary and this date."
    )
    accelerate_on: list[Literal["death", "disability", "change_of_control"]] = Field(
        default_factory=lambda: ["death", "disability", "change_of_control"],
        description="Section B events that vest the units early.",
    )


class Grant(Fact):
    id: FactId = Field(description="Names the cycle's output folder, e.g. 2026-annual.")
    grant_date: FactDate = Field(description='"Grant Date" / "Date of Grant".')
    notice_date: FactDate = Field(description="The date line at the top of the Notice.")
    election_deadline: FactDate = Field(description="Exhibit I must be filed PRIOR TO this date.")
    fair_market_value: Money = Field(description="Grant Date Fair Market Value per share, USD.")
    vesting: Vesting = Field(default_factory=Vesting)
    default_payment_anniversary: PositiveInt = Field(
        1, description="Exhibit I: payment on this anniversary absent an election."
    )


class DirectorElection(Fact):
    """An Exhibit I form received from a director."""

    grant_id: FactId = Field(description="The grant the form names.")
    filed_on: FactDate
    percent: Percent = Field(
        description="Exhibit I allows all (100%) only; the checker flags others."
    )
    pay_on: Literal["separation", "date", "earlier_of_separation_or_date"]
    pay_date: FactDate | None = None

    @model_validator(mode="after")
    def _pay_date_matches_choice(self) -> DirectorElection:
        if self.pay_on in ("date", "earlier_of_separation_or_date") and self.pay_date is None:
            raise form_error(
                f"pay_on: {self.pay_on} needs a pay_date",
                "Add the elected payment date as pay_date: YYYY-MM-DD.",
                field="pay_date",
            )
        if self.pay_on == "separation" and self.pay_date is not None:
            raise form_error(
                "pay_date is only used with pay_on: date or earlier_of_separation_or_date",
                "Remove pay_date, or change pay_on to the choice the director marked.",
                field="pay_date",
            )
        return self


class Settlement(Fact):
    """What happened after the grant: the facts the payment-timing rules check."""

    separation_on: FactDate | None = None
    death_on: FactDate | None = None
    disability_on: FactDate | None = None
    change_in_control_on: FactDate | None = None
    delivered_on: FactDate | None = None


class Director(Fact):
    id: FactId = Field(description="Unique; used for folder names.")
    name: Text = Field(description="As it should read in the documents.")
    salutation: Text | None = Field(None, description="Defaults to the name.")
    address: list[Text] = Field(default_factory=list, description="Address lines for the Notice.")
    employee: StrictBool = Field(False, description="Exhibit I is for non-employee Directors only.")
    specified_employee: StrictBool = Field(
        False, description="Code 409A(a)(2)(B)(i) status at Separation from Service."
    )
    first_eligible_on: FactDate | None = Field(
        None, description="A director newly eligible this cycle (first-year 30-day rule)."
    )
    units: PositiveInt = Field(description="Restricted stock units granted.")
    elections: list[DirectorElection] = Field(
        default_factory=list, description="Exhibit I forms received, in filing order."
    )
    settlement: Settlement | None = Field(None, description="What happened later (payment checks).")

    @property
    def greeting(self) -> str:
        return self.salutation or self.name


class DirectorGrantFacts(Fact):
    kind: Literal["director-rsu-grant"]
    company: DirectorCompany
    stock_plan: Text = Field(description='The plan the units are granted under ("the Plan").')
    form_10k_fiscal_year: StrictInt = Field(
        description="The Form 10-K fiscal year the Notice offers."
    )
    grant: Grant
    drafted_clauses_approved_by: Text | None = Field(
        None, description='e.g. "A. Counsel, 2026-05-01": clears DOC-DRAFTED-CLAUSE.'
    )
    directors_csv: Text | None = Field(
        None, description="Roster file (relative path), one row per director."
    )
    directors: list[Director] = Field(default_factory=list)

    def director(self, director_id: str) -> Director:
        for director in self.directors:
            if director.id == director_id:
                return director
        raise KeyError(director_id)


# ------------------------------------------------------------------ Retirement Restoration Plan


class RRPCompany(Fact):
    name: Text
    publicly_traded: StrictBool = True
    governing_law: Text = "Commonwealth of Virginia"


class RRPPlan(Fact):
    """Plan terms; the defaults are the Plan as amended and restated effective January 1, 2017."""

    name: Text = "CarMax, Inc. Retirement Restoration Plan"
    max_deferral_percent: Percent = Decimal(75)
    match_rate_percent: Percent = Decimal(100)
    match_cap_percent: Percent = Decimal(6)
    compensation_limit: Money | None = Field(
        None, description="401(a)(17) limit; required only for a year with no published figure yet."
    )


class Beneficiary(Fact):
    name: Text
    relationship: Text | None = None
    percent: Percent = Decimal(100)


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
    plan_year: StrictInt
    percent: Percent
    made_on: FactDate
    performance_period: PerformancePeriod | None = Field(
        None,
        description="Required for performance_based; for bonus, the period the bonus is earned "
        "over "
        "(defaults to the Plan Year).",
    )

    @model_validator(mode="after")
    def _period_for_performance_pay(self) -> RRPElection:
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
    age: StrictInt | None = None
    hours_of_service: StrictInt | None = Field(
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

    @model_validator(mode="after")
    def _bonus_within_pay(self) -> PayPeriod:
        if self.bonus > self.compensation:
            raise form_error(
                f"bonus {self.bonus} is more than the period's compensation {self.compensation}",
                "bonus is the part of compensation that is bonus pay; it cannot exceed it.",
                field="bonus",
            )
        return self


class Participant(Fact):
    id: FactId
    name: Text
    eligible_employee: StrictBool = Field(
        description="Select group; common-law employee on U.S. payroll; not CBA/leased."
    )
    compensation: Money = Field(
        description="Compensation for the Plan Year, before the 401(a)(17) limit."
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
    years_of_vesting_service: StrictInt | None = Field(
        None, description="Years of Vesting Service under the Retirement Savings Plan (Plan 3.06)."
    )

    @model_validator(mode="after")
    def _parts_add_up(self) -> Participant:
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


class RRPPlanYearFacts(Fact):
    kind: Literal["rrp-plan-year"]
    company: RRPCompany
    plan: RRPPlan = Field(default_factory=RRPPlan)
    plan_year: StrictInt
    retirement_contribution_percent: Percent | None = Field(
        None, description="Declared under the Retirement Savings Plan; omit if none."
    )
    drafted_clauses_approved_by: Text | None = Field(
        None,
        description='e.g. "A. Counsel, 2025-11-01": clears DOC-DRAFTED-CLAUSE on the '
        "RRP Deferral Election Form (drafted from the Plan), recorded in the manifest.",
    )
    participants: list[Participant] = Field(default_factory=list)

    def participant(self, participant_id: str) -> Participant:
        for participant in self.participants:
            if participant.id == participant_id:
                return participant
        raise KeyError(participant_id)


Facts = DirectorGrantFacts | RRPPlanYearFacts
FACT_MODELS: dict[str, type[Fact]] = {
    "director-rsu-grant": DirectorGrantFacts,
    "rrp-plan-year": RRPPlanYearFacts,
}


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both kinds of fact file, for `docgen schema` and editors."""
    from pydantic import TypeAdapter

    adapter = TypeAdapter(
        Annotated[DirectorGrantFacts | RRPPlanYearFacts, Field(discriminator="kind")]
    )
    schema = adapter.json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "docgen fact file"
    return schema
