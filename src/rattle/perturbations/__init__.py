"""Cheap, pure, seeded text edits: chars, words, visual (homoglyphs), prompt wordings, option orders."""

from rattle.perturbations.base import apply, perturb_text

__all__ = ["apply", "perturb_text"]
