"""Experiment designs: dataset + perturbations/attacks + system + judge + metrics, as data."""
