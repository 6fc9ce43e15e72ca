"""Checking: the rule catalogue and runner, explain, rule cases, the calendar, report views."""
