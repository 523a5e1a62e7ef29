"""Tables, the self-contained HTML report, and loading finished runs for analysis."""
