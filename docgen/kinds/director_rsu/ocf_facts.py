"""What `docgen export-ocf` needs beyond the Notice (DESIGN.md, "After the grant"): the facts of
the issuer, its stock class and the Plan's share reserve that an Open Cap Format 1.2.0 bundle
requires (the OCF ``Issuer``, ``StockClass`` and ``StockPlan`` objects) and that no Notice
states. Optional: only the export needs them, and it refuses without them rather than guess."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictStr

from docgen.core.model import Count, Fact, FactDate, Money, PositiveInt, Text

CountryCode = Annotated[StrictStr, Field(pattern=r"^[A-Z]{2}$")]
SubdivisionCode = Annotated[StrictStr, Field(pattern=r"^[A-Z0-9]{1,3}$")]


class OCFStockClass(Fact):
    """The class of Company Stock the units are paid in (OCF ``StockClass``, type COMMON)."""

    name: Text = Field(description='As the charter names it, e.g. "Common Stock".')
    initial_shares_authorized: PositiveInt = Field(
        description="Shares of the class the charter authorizes."
    )
    votes_per_share: Count = Field(description="Votes each share carries.")
    par_value: Money | None = Field(None, description="Par value per share, USD, if any.")


class OCFFacts(Fact):
    """The issuer's facts an OCF bundle requires (`docgen export-ocf`)."""

    formation_date: FactDate = Field(description="The day the issuer was incorporated.")
    country_of_formation: CountryCode = Field(
        description="ISO 3166-1 alpha-2 country of incorporation, e.g. US."
    )
    country_subdivision_of_formation: SubdivisionCode | None = Field(
        None, description="ISO 3166-2 subdivision of incorporation without the country, e.g. VA."
    )
    stock_class: OCFStockClass
    plan_shares_reserved: PositiveInt = Field(
        description="Shares the Plan reserves for awards (OCF StockPlan initial_shares_reserved)."
    )
