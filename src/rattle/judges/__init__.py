"""Judges turn a response into a Judgement; ``correct=None`` means unmeasured."""
