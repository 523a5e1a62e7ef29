"""Pure metric functions over judged records, returning value, CI and n (STYLE.md 8)."""

from rattle.metrics.core import MetricValue, bootstrap_ci, rate

__all__ = ["MetricValue", "bootstrap_ci", "rate"]
