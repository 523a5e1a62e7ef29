"""Post-hoc analysis of judged records (attack patterns)."""
