"""`docgen send`: the issued forms of a stage mailed to each person with a cover letter counsel
approved, or reminders to those whose form is not recorded (DESIGN.md A26)."""
