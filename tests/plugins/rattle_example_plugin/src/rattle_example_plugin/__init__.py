"""A plugin package registering one perturbation, one model provider and one suite."""
