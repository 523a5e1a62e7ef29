"""Cheap, pure, seeded text edits: chars, words, visual (homoglyphs), prompt wordings, option orders."""

from rattle.perturbations.base import Perturbation, apply, perturb_text, perturb_texts

__all__ = ["Perturbation", "apply", "perturb_text", "perturb_texts"]
